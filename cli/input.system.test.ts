/**
 * Bad input gets a sentence naming its cause and exit 2, never a stack trace, and never exit
 * 1, which says the run found failures (cli/main.ts): a port already taken, an output path
 * that is a folder or lies under a file (checked before any work), a shard that does not
 * exist, a mutants report that is not one, an unknown variation or help topic, a store that
 * is not SQLite, k6 asked for where there is none. And `config check` shows that a secret is
 * set, nothing of its value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, cliAsync, inProcess, ROOT } from './cli.test-support.ts';

const NO_STACK = /\n\s+at /;
const DOCUMENT = join(ROOT, 'spec/versions/platform.v20111101.openapi.yaml');

function assertRefused(r: { code: number | null | undefined; err: string }, message: RegExp, what: string): void {
  assert.equal(r.code, 2, `${what}: ${r.err}`);
  assert.match(r.err, message, what);
  assert.doesNotMatch(r.err, NO_STACK, `${what}: no stack trace`);
}

/** A temporary folder holding a regular file and a folder, removed after `body`. */
async function withScratch(body: (s: { dir: string; file: string; folder: string }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-input-'));
  const file = join(dir, 'a-file');
  const folder = join(dir, 'a-folder');
  writeFileSync(file, 'x\n');
  mkdirSync(folder);
  try {
    await body({ dir, file, folder });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a port already taken: receiver (both kinds), proxy and simulator name the port, exit 2', async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = String((busy.address() as { port: number }).port);
  try {
    await withScratch(async ({ dir }) => {
      const runs = [
        ['receiver', '--port', port, '--delivery-log', join(dir, 'deliveries.jsonl')],
        ['receiver', '--port', port, '--db', join(dir, 'receiver.sqlite')],
        ['proxy', '--port', port, '--', 'true'],
        ['simulator', '--port', port],
      ];
      const results = await Promise.all(runs.map((args) => cliAsync(['--no-config', ...args])));
      for (const [i, r] of results.entries()) assertRefused(r, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`), runs[i].join(' '));
    });
  } finally {
    busy.close();
  }
});

test('run --shard outside 1..total is a usage error', async () => {
  for (const shard of ['0/0', '0/4', '5/4']) {
    const r = await inProcess(['--no-config', 'run', '--shard', shard, '--list']);
    assertRefused(r, /the current shard counts from 1 to the total/, shard);
    assert.match(r.err, /Usage: svc-conformance run/);
  }
});

test('run --grep that is not a regular expression is a usage error', async () => {
  for (const [option, pattern] of [
    ['--grep', '('],
    ['--grep-invert', '[a-'],
    ['--grep', '/x(/i'],
  ]) {
    const r = await inProcess(['--no-config', 'run', option, pattern, '--list']);
    assertRefused(r, /is not a regular expression \(/, pattern);
    assert.ok(r.err.includes(`${option} "${pattern}" is not`), r.err);
    assert.match(r.err, /Usage: svc-conformance run/);
  }
});

test('mutants: a --rerun file that is not a mutants report, or a selection of none, is named with exit 2', async () => {
  await withScratch(async ({ dir }) => {
    const out = join(dir, 'out');
    for (const [name, text] of [
      ['empty.json', '{}'],
      ['not-json.json', 'nope'],
      ['bad-outcomes.json', '{"outcomes":[{"id":1}]}'],
      ['null.json', 'null'],
    ]) {
      writeFileSync(join(dir, name), text);
      const r = await inProcess(['--no-config', 'mutants', '--rerun', join(dir, name), '--out', out]);
      assertRefused(r, new RegExp(`--rerun \\S*${name.replace('.', '\\.')} is not a mutants report`), name);
    }
    assertRefused(await inProcess(['--no-config', 'mutants', '--only', 'matches-no-mutant-id', '--out', out]), /no mutant selected/, '--only');
  });
});

test('an output path that cannot be written is refused before any work, naming it, exit 2', async () => {
  await withScratch(async ({ dir, file, folder }) => {
    for (const [args, message] of [
      [['reference', DOCUMENT, '--json', join(file, 'x.json')], /--json \S+: cannot write there: \S+a-file is a file, not a folder/],
      [['reference', DOCUMENT, '--markdown', folder], /--markdown \S+: cannot write there: \S+a-folder is a folder/],
      [['versions', '--from-file', DOCUMENT, '--to-file', DOCUMENT, '--out', file], /--out \S+: cannot write there: \S+a-file is a file, not a folder/],
      [['usage', '--declare', 'GET /institutions', '--out', folder], /cannot open \S+a-folder: it is a folder/],
      [['config', 'docs', '--out', folder], /--out \S+: cannot write there: \S+a-folder is a folder/],
      [['config', 'init', '--file', join(dir, 'missing', 'x.ts')], /--file \S+: the folder \S+missing does not exist/],
      [['mutants', '--sample', '1', '--out', file], /--out \S+: cannot write there: \S+ is a file, not a folder/],
      [['load', '--out', file], /--out \S+: cannot write there: \S+ is a file, not a folder/],
      [['proxy', '--out', file, '--', 'true'], /--out \S+: cannot write there: \S+ is a file, not a folder/],
      [['proxy', '--usage-out', folder, '--', 'true'], /--usage-out \S+: cannot write there: \S+ is a folder/],
    ] as const) {
      assertRefused(await inProcess(['--no-config', ...args]), message, args.join(' '));
    }
    // The preflight's checks go over the network: the path is refused before the first one.
    const preflight = cli(['--no-config', 'preflight', '--markdown', folder]);
    assertRefused(preflight, /--markdown \S+: cannot write there: \S+a-folder is a folder/, 'preflight --markdown');
    assert.equal(preflight.out, '', 'no check ran');
    // The run's reports folder under a file (as under a read-only mount): refused before Playwright starts.
    const run = cli(['--no-config', 'run', '--project', 'api'], { env: { SVC_REPORTS_OUT: join(file, 'reports') } });
    assertRefused(run, /the reports folder \(run\.reportsDir, SVC_REPORTS_OUT\) \S+: cannot write there: \S+a-file is a file, not a folder/, 'run');
  });
});

test('config init writes the format its file name says; a --format that contradicts it is refused', async () => {
  await withScratch(async ({ dir }) => {
    const json = join(dir, 'svc.json');
    assert.equal((await inProcess(['--no-config', 'config', 'init', '--file', json])).code, 0);
    assert.ok(JSON.parse(readFileSync(json, 'utf8')).target, 'a .json file holds JSON');
    assertRefused(
      await inProcess(['--no-config', 'config', 'init', '--file', join(dir, 'svc.ts'), '--format', 'json']),
      /--format json and --file \S+ disagree/,
      'contradiction',
    );
    assertRefused(await inProcess(['--no-config', 'config', 'init', '--file', join(dir, 'svc.yaml')]), /--file takes a \.ts, .* or \.json file name/, '.yaml');
  });
});

test('an unknown proxy variation or help topic, a --db that is no SQLite store: named, exit 2', async () => {
  assertRefused(await inProcess(['--no-config', 'proxy', '--variation', 'bogus', '--', 'true']), /unknown variation\(s\) bogus/, 'proxy --variation');
  for (const args of [
    ['help', 'bogus'],
    ['config', 'help', 'bogus'],
  ]) {
    const r = await inProcess(args);
    assertRefused(r, /unknown command 'bogus'/, args.join(' '));
    assert.doesNotMatch(r.err + r.out, /Commands:/, 'no help listing, as if the topic had been understood');
  }
  await withScratch(async ({ file, folder }) => {
    assertRefused(
      await inProcess(['--no-config', 'receiver', '--port', '0', '--db', folder]),
      /--db \S+a-folder: cannot write there: \S+ is a folder/,
      'folder',
    );
    assertRefused(
      await inProcess(['--no-config', 'receiver', '--port', '0', '--db', file]),
      /--db \S+a-file: the receiver's store \S+a-file cannot be opened as a SQLite database/,
      'a text file',
    );
  });
});

test('load --runner k6 without k6 on the PATH says so, exit 2', async () => {
  await withScratch(async ({ folder }) => {
    const r = await cliAsync(['--no-config', 'load', '--runner', 'k6'], { env: { PATH: folder } });
    assertRefused(r, /k6 was asked for \(--runner k6\), but no k6 program is on the PATH/, 'load --runner k6');
  });
});

test('config check shows that a secret is set, not its length', () => {
  const r = cli(['--no-config', 'config', 'check'], { env: { SVC_API_KEY: 'seventeen-letters' } });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /credentials\.apiKey\s+set \(not shown\)\s+\[environment: SVC_API_KEY\]/);
  assert.doesNotMatch(r.out, /17|characters/);
});
