/**
 * The integration gates as a user runs them, when they checked nothing: `proxy -- true`
 * (no request reached the proxy), `check-har` of an empty HAR and `tolerance -- true` (the
 * baseline sent no request to the simulator) fail with exit 1 and a sentence naming why,
 * and pass with --allow-empty, saying so; a command that does send a request still passes
 * tolerance. `usage` takes --max-har-mb and refuses an empty HAR; `webhook-check` against a
 * URL where nothing listens stops with exit 2 before any property runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'cli/bin.mjs');
/** A test command that sends one request to the platform API it is given. */
const FETCHES = `${JSON.stringify(process.execPath)} -e "fetch(process.env.BASE_URL + '/institutions').then((r) => r.text())"`;

function cli(args: string[]) {
  const res = spawnSync(process.execPath, [BIN, '--no-config', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

async function inTemp(run: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-checked-nothing-'));
  try {
    await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('proxy -- true fails: no request reached the proxy; --allow-empty passes it, saying so', () =>
  inTemp((dir) => {
    const r = cli(['proxy', '--out', join(dir, 'p'), '--', 'true']);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /gate: FAIL \(checked nothing\)/);
    assert.match(
      r.out,
      /FAIL: this gate checked nothing, and a gate that checked nothing is not green: no request reached the proxy at http:\/\/127\.0\.0\.1:\d+\./,
    );
    assert.match(readFileSync(join(dir, 'p', 'junit.xml'), 'utf8'), /name="checked nothing"><failure /);
    const allowed = cli(['proxy', '--out', join(dir, 'a'), '--allow-empty', '--', 'true']);
    assert.equal(allowed.code, 0, allowed.out + allowed.err);
    assert.match(allowed.out, /This gate checked nothing \(--allow-empty: passing anyway\): no request reached the proxy/);
  }));

test('check-har of an empty HAR fails, with or without --base-url, naming the empty HAR first; --allow-empty passes it', () =>
  inTemp((dir) => {
    const har = join(dir, 'empty.har');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }));
    for (const args of [['--base-url', 'http://127.0.0.1:9'], []]) {
      const r = cli(['check-har', har, '--out', join(dir, 'c'), ...args]);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /checked nothing, and a gate that checked nothing is not green: the HAR holds no request\./);
      assert.doesNotMatch(r.out + r.err, /Accept-Version/);
    }
    const allowed = cli(['check-har', har, '--out', join(dir, 'a'), '--allow-empty']);
    assert.equal(allowed.code, 0, allowed.out + allowed.err);
    assert.match(allowed.out, /--allow-empty: passing anyway/);
  }));

test('tolerance -- true fails at the baseline: the command sent no request; --allow-empty runs the matrix; a command that sends one passes', () =>
  inTemp((dir) => {
    const r = cli(['tolerance', '--variation', 'upgrade-adds-field', '--out', join(dir, 't'), '--', 'true']);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /FAIL: this gate checked nothing.*without sending any request to the embedded simulator during the baseline run/);
    assert.doesNotMatch(r.out, /Tolerates all/);
    const json = JSON.parse(readFileSync(join(dir, 't', 'tolerance.json'), 'utf8'));
    assert.deepEqual([json.gate, json.baseline.requests, json.rows.length], ['fail', 0, 0]);
    assert.match(readFileSync(join(dir, 't', 'junit.xml'), 'utf8'), /name="checked nothing"><failure /);
    const allowed = cli(['tolerance', '--variation', 'upgrade-adds-field', '--out', join(dir, 'a'), '--allow-empty', '--', 'true']);
    assert.equal(allowed.code, 0, allowed.out + allowed.err);
    assert.match(allowed.out, /--allow-empty: passing anyway/);
    assert.match(allowed.out, /Tolerates all 1 variations/);
    const sends = cli(['tolerance', '--variation', 'upgrade-adds-field', '--out', join(dir, 's'), '--', FETCHES]);
    assert.equal(sends.code, 0, sends.out + sends.err);
    assert.doesNotMatch(sends.out, /checked nothing/);
    assert.equal(JSON.parse(readFileSync(join(dir, 's', 'tolerance.json'), 'utf8')).baseline.requests, 1);
  }));

test('usage takes --max-har-mb (the bound its message names, in MiB) and refuses an empty HAR', () =>
  inTemp((dir) => {
    const big = join(dir, 'big.har');
    writeFileSync(big, Buffer.alloc(1.5 * 1024 * 1024, 0x20));
    const r = cli(['usage', '--from-har', big, '--max-har-mb', '1', '--out', join(dir, 'u.json')]);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /is 1572864 bytes \(1\.5 MiB\), above the bound of 1 MiB \(--max-har-mb raises it\)/);
    const empty = join(dir, 'empty.har');
    writeFileSync(empty, JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }));
    const e = cli(['usage', '--from-har', empty, '--out', join(dir, 'u.json')]);
    assert.equal(e.code, 2, e.out + e.err);
    assert.match(e.err, /the HAR holds no request/);
    assert.doesNotMatch(e.err, /\n\s+at /, 'no stack trace');
  }));

test('webhook-check where nothing listens: exit 2 at once, naming the URL and the cause, no stack trace', async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  await inTemp((dir) => {
    const url = `http://127.0.0.1:${port}/hook`;
    const r = cli(['webhook-check', '--url', url, '--runs', '1', '--out', join(dir, 'w')]);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, new RegExp(`nothing answers at --url ${url.replace(/[.]/g, '\\.')}, so no property was run: .*connection refused \\(ECONNREFUSED\\)`));
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
    assert.doesNotMatch(r.out, /a property failed/);
    // The cause is the first thing said: no property is announced that will not run.
    assert.doesNotMatch(r.out, /every valid payload/);
  });
});
