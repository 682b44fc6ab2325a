/**
 * A rule's authority is its sentence: every fragment a rule (contracts/, the fuzzer's
 * requests, the load scripts, the integration's judge) puts in double quotes stands word for
 * word in the text it cites (the specification; the vendor notes or ../shared/DESIGN.md where
 * the rule names them; an RFC's words are left to the RFC).
 * A paraphrase is written without quotation marks. Compared case-blind, with Markdown's
 * code and emphasis marks and table bars dropped, runs of white space as one, and `...`
 * standing for words left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadProfile } from '../targets/index.ts';

const ROOT = join(import.meta.dirname, '..');
/** The rooms whose strings are rules that can fail a run: the contract, the fuzzer's requests, the load scripts' checks, the integration's judge. */
const RULE_ROOMS = ['contracts', 'scenarios/fuzz/engine', 'load', 'integration'];
const SPEC_FILE = loadProfile().run.specFile; // SVC_SPEC_FILE, default ../shared/specification.md
const SHARED = dirname(SPEC_FILE);
const normalise = (s: string) => s.replace(/[`*]/g, '').replace(/\|/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Every string a source file of contracts/ writes (quoted literals and the fixed parts of
 * templates), with its line: a small scanner, since the project's TypeScript is checked by
 * a compiler without a JavaScript API. Comments are skipped; a regular expression literal
 * holds no rule.
 */
function stringsOf(file: string): { text: string; line: number }[] {
  const src = readFileSync(file, 'utf8');
  const out: { text: string; line: number }[] = [];
  const lineAt = (i: number) => src.slice(0, i).split('\n').length;
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') i = src.indexOf('\n', i) === -1 ? src.length : src.indexOf('\n', i);
    else if (c === '/' && src[i + 1] === '*') i = src.indexOf('*/', i + 2) + 2;
    else if (c === "'" || c === '"' || c === '`') {
      const start = i;
      let text = '';
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') {
          text += src[i + 1];
          i += 2;
        } else if (c === '`' && src[i] === '$' && src[i + 1] === '{') {
          // A template's placeholder ends this part; its expression is not a string of the rule.
          let depth = 1;
          i += 2;
          while (i < src.length && depth) {
            if (src[i] === '{') depth++;
            else if (src[i] === '}') depth--;
            i++;
          }
          text += '\u0000';
        } else text += src[i++];
      }
      i++;
      for (const part of text.split('\u0000')) out.push({ text: part, line: lineAt(start) });
    } else i++;
  }
  return out;
}

/** The double-quoted fragments of a string that cite a text of ../shared/ (not an RFC's). */
function quotesOf(text: string): string[] {
  if (/\bRFC\s?\d/.test(text)) return [];
  // A fragment that begins or ends with a space lies between two quotations (`"a" instead of
  // "b"`); one of a word or two is a value (a field, a payload such as "{not json}"), not a
  // sentence; one that holds a tag's brackets lies between two attribute values of markup
  // (`failures="n">\n  <testsuite name="`).
  return [...text.matchAll(/"([^"]{8,})"/g)]
    .map((m) => m[1])
    .filter((q) => /^\S[\s\S]*\S$/.test(q) && q.trim().split(/\s+/).length >= 3 && !/^>[\s\S]*<\w/.test(q));
}

test('every quoted fragment of a rule stands in the text it cites', { skip: !existsSync(SPEC_FILE) && `no specification at ${SPEC_FILE}` }, () => {
  const cited = ['specification.md', 'real-service-notes.md', 'DESIGN.md']
    .map((f) => join(SHARED, f))
    .filter((f) => existsSync(f))
    .map((f) => normalise(readFileSync(f, 'utf8')))
    .join('\n');
  const files = RULE_ROOMS.flatMap((room) =>
    readdirSync(join(ROOT, room))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.test-support.ts'))
      .map((f) => `${room}/${f}`),
  );
  let quotes = 0;
  const missing: string[] = [];
  for (const f of files)
    for (const { text, line } of stringsOf(join(ROOT, f)))
      for (const q of quotesOf(text)) {
        quotes++;
        const parts = q
          .split(/\.\.\.|…/)
          .map(normalise)
          .filter((p) => p.length > 3);
        if (!parts.every((p) => cited.includes(p))) missing.push(`${f}:${line}: "${q}"`);
      }
  assert.ok(quotes > 100, `the rules' quotations were read (${quotes})`);
  assert.deepEqual(missing, [], 'quoted but not in the cited text (quote it word for word, or write the paraphrase without quotation marks)');
});
