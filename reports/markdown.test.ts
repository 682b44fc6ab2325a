/**
 * The reports' Markdown (reports/markdown.ts): what the writers lay out comes out as the same
 * page structure, and a target's own words put through markdownText or markdownCode are
 * shown on the page exactly as written (line endings as spaces), whatever they spell.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { markdownCode, markdownText, markdownToHtml } from './markdown.ts';

test('headings, lists, tables, bold and code render; raw HTML and an escaped pipe stay text in their cell', () => {
  const md = [
    '# Nightly **FAIL**',
    'Gate: `npm test` failed.',
    '| check | received |',
    '|---|---|',
    '| `response_schema_conformance` | <img src=x onerror=alert(1)> a \\| b |',
    '',
    '- one',
    '- **two**',
    '',
    '_No full nightly recorded yet._',
  ].join('\n');
  const page = markdownToHtml(md, 'svc <nightly>');
  assert.match(page, /<title>svc &lt;nightly&gt;<\/title>/);
  assert.match(page, /<h1>Nightly <strong>FAIL<\/strong><\/h1>/);
  assert.match(page, /<p>Gate: <code>npm test<\/code> failed.<\/p>/);
  assert.match(page, /<td><code>response_schema_conformance<\/code><\/td>\s*<td>&lt;img src=x onerror=alert\(1\)&gt; a \| b<\/td>/);
  assert.doesNotMatch(page, /<img/);
  assert.match(page, /<li>one<\/li>\s*<li><strong>two<\/strong><\/li>/);
  assert.match(page, /<p><em>No full nightly recorded yet.<\/em><\/p>/);
});

// The renderer the reports use (markdownToHtml's settings): the pages are what a reader sees.
const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true });
const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** One cell's inner HTML from a table of one column and one row; undefined when the Markdown made another shape. */
function onlyCell(md: string): string | undefined {
  const html = markdown.render(`| value |\n|---|\n| ${md} |\n`);
  const rows = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)];
  return rows.length === 1 ? rows[0][1] : undefined;
}
/** What a target may say: any text without NUL (markdown-it replaces NUL, as HTML does), weighted to Markdown's own characters. */
const targetWords = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...'\\`*_~[]<>&|#+-=.!()"\':{} \t\r\n\u0085\u2028\u00a01aZé'.split(''),
        '&amp;',
        '](',
        '][',
        ']:',
        '[x]',
        '&#35;',
        '**',
        '__',
        '~~',
        '```',
        '<b>',
        '1.',
        '&#35;',
      ),
      fc.string({ unit: 'grapheme' }),
    ),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join('').replace(/\0/g, ''));
const shown = (s: string) => s.replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ');

test('markdownText: a target\u2019s words in a table cell are one cell showing exactly those words, no markup', () => {
  fc.assert(
    fc.property(targetWords, fc.constantFrom('', '.', ')', '*'), (s, after) => {
      // A writer may follow the words with its own punctuation: `(${markdownText(x)}).`
      const inner = onlyCell(`${markdownText(s)}${after}`);
      assert.notEqual(inner, undefined, 'one row, one cell');
      assert.doesNotMatch(inner!, /</, 'no element inside the cell');
      assert.equal(unescapeHtml(inner!), `${shown(s).trim()}${after}`);
    }),
    { numRuns: 10000 },
  );
});

test('markdownText: a target\u2019s words as a list item are one item showing exactly those words', () => {
  fc.assert(
    fc.property(
      targetWords.filter((s) => shown(s).trim() !== ''),
      (s) => {
        const html = markdown.render(`- ${markdownText(s)}\n`);
        const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)];
        assert.equal(items.length, 1, html);
        assert.doesNotMatch(items[0][1], /</, html);
        assert.equal(unescapeHtml(items[0][1]), shown(s).trim());
      },
    ),
    { numRuns: 10000 },
  );
});

test('markdownCode: a code span in a table cell and in a line shows exactly the words', () => {
  fc.assert(
    fc.property(
      targetWords.filter((s) => s !== ''),
      (s) => {
        const inner = onlyCell(markdownCode(s));
        assert.notEqual(inner, undefined, 'one row, one cell');
        const code = /^<code>([\s\S]*)<\/code>$/.exec(inner!);
        assert.ok(code, `one code span: ${inner}`);
        assert.equal(unescapeHtml(code[1]), shown(s));
        const line = /^<p>x <code>([\s\S]*)<\/code> y<\/p>$/.exec(markdown.render(`x ${markdownCode(s, 'text')} y`).trim());
        assert.ok(line, 'one code span in the line');
        assert.equal(unescapeHtml(line[1]), shown(s));
      },
    ),
    { numRuns: 10000 },
  );
});

test('markdownText and markdownCode leave ordinary words as they are (the raw Markdown stays readable)', () => {
  assert.equal(markdownText('response_schema_conformance at body.accounts[0].guid'), 'response_schema_conformance at body.accounts[0].guid');
  assert.equal(markdownText('[api] Q&A &amp; C:\\tmp <uuid>'), '\\[api] Q&A \\&amp; C:\\tmp \\<uuid\\>');
  assert.equal(markdownText('GET /users/{user_guid}/members → 200'), 'GET /users/{user_guid}/members → 200');
  assert.equal(markdownText('_private'), '\\_private');
  assert.equal(markdownText('OpenAPI 3.0.3, version 1.0 - 2'), 'OpenAPI 3.0.3, version 1.0 - 2');
  assert.equal(markdownCode('body.members[0]'), '`body.members[0]`');
  assert.equal(markdownCode('a`b'), '``a`b``');
  assert.equal(markdownCode('`x'), '`` `x ``');
  assert.equal(markdownCode(''), '');
});
