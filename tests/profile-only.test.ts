/**
 * One profile (DESIGN.md, "Target profiles": no `SVC_*` variable is read outside the
 * profile, command-line flags of scripts aside): on the Node side the target profile
 * (targets/profiles/, exported through targets/index.ts) is the only reader of `SVC_*`
 * environment variables. Every other file takes its settings from a profile object.
 *
 * The rule, checked on every .ts/.mts/.mjs/.js file outside targets/profiles/,
 * node_modules and the ignored output folders (reports/out, test-results, ...), with
 * comments left out (strings and template literals are kept: `${process.env.SVC_X}` is
 * a read):
 *
 *   A READ is any of
 *     R1  a member access of an SVC_ key on an environment object, unless it is the
 *         target of a plain `=` or the operand of `delete`: `process.env.SVC_X`,
 *         `env.SVC_X`, `env['SVC_X']`, `` env[`SVC_X_${k}`] ``, `o.env.SVC_X ||= ...`
 *         (a compound assignment reads first). An environment object is `process.env`,
 *         `__ENV`, or any name ending in `env`/`Env`/`ENV` (env, o.env, simEnv).
 *     R2  destructuring an SVC_ key out of one: `const { SVC_X } = process.env`,
 *         `const { SVC_X: x = '1' } = env`.
 *     R3  handing one to a helper together with an SVC_ name: `flag(env, 'SVC_X')`,
 *         `num(process.env, "SVC_X", 5)`.
 *   NOT a read (setting the environment of a child process or of a test):
 *     `{ ...env, SVC_X: '1' }`, `env.SVC_X = '1'`, `delete env.SVC_X`, `-e SVC_X=1`,
 *     a variable's name in a message or a skip reason ('needs SVC_X').
 *
 * Reads the rule cannot see: a computed key that is not a literal (`env[name]` with
 * name = 'SVC_X' elsewhere). The profile keeps such tables (PRODUCT_PATH_ENV, the ACH
 * filter names) inside targets/profiles/, so none is needed outside.
 *
 * Three exemptions, each with its reason:
 *   - k6 scripts (files under load/ that import a `k6` module): k6 code reads its
 *     settings from `__ENV` (load/script-support/config.ts), which the Node side fills from the
 *     profile with profileEnv(profile); their reads are checked instead against
 *     profileEnv's keys (the last test here), so the scripts never read a setting the
 *     profile does not carry.
 *   - targets/simulator/: the embedded target itself, the system under test, not a
 *     suite. It reads its own configuration (settingsFromEnv and the webhook settings:
 *     SVC_SIM_*, and the credentials it serves; main.ts's port) the way a separately
 *     started service does (`npm run simulator`, the real-target check); startTarget
 *     (targets/index.ts) hands it the environment and decides nothing from it.
 *
 *   - examples/: a team's own integration, the worked example of the integration gate
 *     (integration/README.md). It reads the variables the proxy and tolerance commands
 *     hand a team's test command (integration/command.ts commandEnv), as any
 *     team's code would; it is the subject of the gate, not a part of the suite.
 *
 * No file outside those three is allowed to read: no allowlist.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { K6_SETTING_ALIASES, loadProfile, profileEnv } from '../targets/index.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Folders never scanned: dependencies, git, and the ignored outputs (.gitignore). */
const SKIP_DIRS = new Set(['node_modules', '.git', 'reports/out', 'test-results', 'playwright-report', 'blob-report', 'allure-results', '.tmp']);
/** The profile: the one reader. */
const PROFILE_DIR = 'targets/profiles/';
/** The embedded target itself, configured like a separately started service (see the header). */
const THE_TARGET = 'targets/simulator/';
/** A team's own code under test (see the header). */
const TEAM_CODE = 'examples/';

export interface Read {
  file: string;
  line: number;
  name: string;
  text: string;
}

/**
 * The source with every comment replaced by spaces (newlines kept, so line numbers
 * hold). Strings, template literals (with their `${...}` code) and regular expression
 * literals are kept as they are and never mistaken for comments.
 */
export function withoutComments(src: string): string {
  let out = '';
  let i = 0;
  // Stack of open template literals: the brace depth of each `${` being read.
  const templates: number[] = [];
  let braces = 0;
  let prev = ''; // last significant character of code (for the regex-or-division guess)
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const readString = (q: string) => {
    let j = i + 1;
    while (j < src.length && src[j] !== q && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
    out += src.slice(i, j + 1);
    i = j + 1;
  };
  const readTemplate = () => {
    // From just after a backtick or a closing `}` of `${...}`: to the closing backtick or the next `${`.
    let j = i;
    while (j < src.length && src[j] !== '`' && !(src[j] === '$' && src[j + 1] === '{')) j += src[j] === '\\' ? 2 : 1;
    if (src[j] === '`') {
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += src.slice(i, j + 2);
      i = j + 2;
      templates.push(braces);
      braces++;
    }
    prev = '`';
  };
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      const end = src.indexOf('\n', i);
      const stop = end === -1 ? src.length : end;
      out += blank(src.slice(i, stop));
      i = stop;
    } else if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      out += blank(src.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      readString(c);
      prev = c;
    } else if (c === '`') {
      out += c;
      i++;
      readTemplate();
    } else if (c === '/' && (prev === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(prev) || /\b(return|typeof|case|of|in)\s*$/.test(out))) {
      // A regular expression literal: to the closing slash outside a character class.
      let j = i + 1;
      let cls = false;
      while (j < src.length && src[j] !== '\n' && (cls || src[j] !== '/')) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') cls = true;
        else if (src[j] === ']') cls = false;
        j++;
      }
      out += src.slice(i, j + 1);
      i = j + 1;
      prev = '/';
    } else {
      if (c === '{') braces++;
      else if (c === '}') {
        braces--;
        if (templates.length && templates[templates.length - 1] === braces) {
          templates.pop();
          out += c;
          i++;
          readTemplate();
          continue;
        }
      }
      out += c;
      if (!/\s/.test(c)) prev = c;
      i++;
    }
  }
  return out;
}

/** An environment object: process.env, __ENV, or a name ending in env/Env/ENV (env, o.env, simEnv). */
const ENV = String.raw`(?:\b(?:[\w$]+\s*\??\.\s*)*[\w$]*(?:env|Env|ENV)\b)`;
const KEY = '(SVC_[A-Z0-9_]*)';
const R1 = new RegExp(String.raw`${ENV}\s*(?:\?\.\s*|\.\s*)${KEY}\b|${ENV}\s*(?:\?\.\s*)?\[\s*['"\`]${KEY}`, 'g');
const R2 = new RegExp(String.raw`\{([^{}]*\bSVC_[A-Z0-9_]*\b[^{}]*)\}\s*=(?![=>])\s*${ENV}\b`, 'g');
const R3 = new RegExp(String.raw`${ENV}\s*,\s*['"\`]${KEY}`, 'g');

/** Every read of an SVC_ variable in one file's source (rules R1-R3 of the header). */
export function readsIn(file: string, source: string): Read[] {
  const code = withoutComments(source);
  const lineOf = (at: number) => code.slice(0, at).split('\n').length;
  const lines = source.split('\n');
  const out: Read[] = [];
  const add = (at: number, name: string) => {
    const line = lineOf(at);
    out.push({ file, line, name, text: lines[line - 1].trim() });
  };
  for (const m of code.matchAll(R1)) {
    let after = code.slice(m.index! + m[0].length);
    if (m[2] !== undefined) after = after.slice(after.indexOf(']') + 1); // past a computed key
    const before = code.slice(Math.max(0, m.index! - 12), m.index);
    // `env.SVC_X = v` (not `==`, `===` or `=>`) and `delete env.SVC_X` set the environment.
    if (/^\s*=(?![=>])/.test(after) || /\bdelete\s+$/.test(before)) continue;
    add(m.index!, m[1] ?? m[2]);
  }
  for (const m of code.matchAll(R2)) {
    const inner = m[1];
    for (const k of inner.matchAll(/\bSVC_[A-Z0-9_]*\b/g)) add(m.index! + 1 + k.index!, k[0]);
  }
  for (const m of code.matchAll(R3)) {
    // `{ ...env, 'SVC_X': '1' }` spreads an environment into a new one: a write.
    if (/\.\.\.\s*$/.test(code.slice(Math.max(0, m.index! - 5), m.index))) continue;
    add(m.index!, m[1]);
  }
  return out.sort((a, b) => a.line - b.line);
}

function sourceFiles(dir: string, root: string, files: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const rel = relative(root, full).split(sep).join('/');
    if (SKIP_DIRS.has(name) || SKIP_DIRS.has(rel)) continue;
    if (statSync(full).isDirectory()) sourceFiles(full, root, files);
    else if (/\.(ts|mts|mjs|js)$/.test(name)) files.push(rel);
  }
  return files;
}

/** A k6 script or library: a file under load/ (outside the Node runner) that imports a `k6` module. */
export const isK6File = (file: string, source: string) =>
  file.startsWith('load/') && !file.startsWith('load/runner/') && /\bfrom\s+['"]k6(?:\/[\w-]+)*['"]/.test(source);

/** Every SVC_ read of the tree at `root`, by file, with the k6 files apart. */
export function scan(root = ROOT): { reads: Read[]; k6Reads: Read[] } {
  const reads: Read[] = [];
  const k6Reads: Read[] = [];
  for (const file of sourceFiles(root, root)) {
    if (file.startsWith(PROFILE_DIR) || file.startsWith(THE_TARGET) || file.startsWith(TEAM_CODE)) continue;
    const source = readFileSync(join(root, file), 'utf8');
    (isK6File(file, source) ? k6Reads : reads).push(...readsIn(file, source));
  }
  return { reads, k6Reads };
}

const show = (r: Read) => `${r.file}:${r.line} reads ${r.name}: ${r.text}`;

test('no SVC_ variable is read outside the profile (targets/profiles/)', () => {
  const { reads } = scan();
  assert.deepEqual(reads.map(show), [], 'read these settings from the profile (targets/index.ts loadProfile / the profile fixture) instead');
});

test('the check catches planted reads and lets environment writes pass', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-only-'));
  try {
    // The planted names are split so that this file itself reads nothing.
    const V = (s: string) => `SVC_${s}`;
    const planted = [
      `const a = process.env.${V('PLANTED_A')};`, // 1  R1
      `const b = env['${V('PLANTED_B')}'] ?? 'x';`, // 2  R1, quoted key
      `const { ${V('PLANTED_C')}, HOME } = process.env;`, // 3  R2
      `const on = flag(env, '${V('PLANTED_D')}');`, // 4  R3
      `o.env.${V('PLANTED_E')} ||= '10';`, // 5  R1, compound assignment reads
      `const f = \`\${process.env?.${V('PLANTED_F')}}\`;`, // 6  R1 inside a template literal
      `const g = __ENV[\`${V('PLANTED_G')}_\${k}\`];`, // 7  R1, template key
      `if (simEnv.${V('PLANTED_H')} === '1') go();`, // 8  R1 compared, not assigned
      `const { ${V('PLANTED_I')}: i = '1' } = env;`, // 9  R2 renamed with a default
      // Writes and mentions: none is a read.
      `const child = { ...process.env, '${V('WRITE_A')}': '1', ${V('WRITE_B')}: '2' };`, // 10
      `env.${V('WRITE_C')} = '1';`, // 11
      `delete env.${V('WRITE_D')};`, // 12
      `test.skip(true, 'needs ${V('MENTION')}: set it');`, // 13
      `// process.env.${V('IN_A_COMMENT')}`, // 14
      `/* env.${V('IN_A_BLOCK')} */ const r = /env\\.${V('IN_A_REGEX')}/;`, // 15
      `runProcess('k6', ['-e', '${V('FLAG')}=1']);`, // 16
      `markers.${V('NOT_AN_ENV')};`, // 17
    ].join('\n');
    mkdirSync(join(dir, 'scenarios'), { recursive: true });
    mkdirSync(join(dir, 'targets/profiles'), { recursive: true });
    mkdirSync(join(dir, 'node_modules/x'), { recursive: true });
    writeFileSync(join(dir, 'scenarios/planted.ts'), planted);
    writeFileSync(join(dir, 'targets/profiles/profile.ts'), `export const x = process.env.${V('ALLOWED')};`);
    writeFileSync(join(dir, 'node_modules/x/index.js'), `process.env.${V('DEPENDENCY')}`);
    const { reads } = scan(dir);
    assert.deepEqual(
      reads.map((r) => `${r.file}:${r.line} ${r.name}`),
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n, i) => `scenarios/planted.ts:${n} ${V(`PLANTED_${'ABCDEFGHI'[i]}`)}${n === 7 ? '_' : ''}`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('comments are left out without touching strings, templates or regular expressions', () => {
  const src = "const u = 'http://x'; // gone\nconst t = `a${b /* gone */}c`; /* gone\n */ const r = /\\/\\*/;";
  const out = withoutComments(src);
  assert.equal(out.split('\n').length, 3);
  assert.ok(out.includes("'http://x'") && out.includes('`a${b ') && out.includes('}c`') && out.includes('/\\/\\*/'), out);
  assert.ok(!out.includes('gone'), out);
});

test('profileEnv gives every SVC_ setting the k6 scripts read from __ENV', () => {
  const { k6Reads } = scan();
  assert.ok(
    k6Reads.some((r) => r.file === 'load/script-support/config.ts'),
    'the k6 configuration is found and read',
  );
  const read = [...new Set(k6Reads.map((r) => r.name))];
  // An older name the scripts still read reaches them under the name that replaced it.
  const names = read.filter((n) => !(n in K6_SETTING_ALIASES));
  const value = (n: string) => (n === 'SVC_BASE_URL' ? 'https://int.example' : /_MS$|_SECOND$|_RATE$/.test(n) ? '1' : `value-of-${n}`);
  // A real target with every setting given: each k6 setting comes out of profileEnv as given.
  const env = profileEnv(loadProfile(Object.fromEntries(names.map((n) => [n, value(n)]))));
  assert.deepEqual(
    names.filter((n) => env[n] !== value(n)),
    [],
    'profileEnv (targets/index.ts) must pass these k6 settings from the profile, as given',
  );
  for (const old of read.filter((n) => n in K6_SETTING_ALIASES)) {
    const aliased = profileEnv(loadProfile({ SVC_BASE_URL: 'https://int.example', [old]: 'given-under-the-old-name' }));
    assert.equal(aliased[K6_SETTING_ALIASES[old]], 'given-under-the-old-name', `${old} reaches the scripts as ${K6_SETTING_ALIASES[old]}`);
  }
});
