/**
 * "A gate that checked nothing is not green": a HAR without any API exchange fails check-har
 * with a sentence naming why (no request at all; requests that went elsewhere), in every
 * report, unless --allow-empty; the HAR size bound is told in the MiB --max-har-mb takes;
 * webhook-check refuses a URL where nothing answers before any property runs. No child
 * process here: the proxy and tolerance runs are in checked-nothing.system.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntegrationInputError, readHar, toHar, type RecordedExchange } from './har.ts';
import { checkHar } from './traffic.ts';
import { runWebhookCheck, unanswered } from './webhook-check.ts';

const EMPTY_HAR = { log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } };

function inTemp<T>(run: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'svc-checked-nothing-'));
  try {
    return run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function checkHarOf(har: unknown, o: { baseUrl?: string; allowEmpty?: boolean } = {}) {
  return inTemp((dir) => {
    const file = join(dir, 'traffic.har');
    writeFileSync(file, JSON.stringify(har));
    const run = checkHar({ file, env: {}, out: join(dir, 'out'), ...o });
    const read = (name: string) => readFileSync(join(dir, 'out', name), 'utf8');
    return { run, json: JSON.parse(read('report.json')), md: read('report.md'), junit: read('junit.xml') };
  });
}

test('an empty HAR fails check-har: the gate checked nothing, said in the console, Markdown, JSON and JUnit', () => {
  const { run, json, md, junit } = checkHarOf(EMPTY_HAR, { baseUrl: 'http://127.0.0.1:9' });
  assert.equal(run.exitCode, 1);
  const text = run.lines.join('\n');
  assert.match(text, /gate: FAIL \(checked nothing\)/);
  assert.match(text, /FAIL: this gate checked nothing, and a gate that checked nothing is not green: the HAR holds no request\. .*or pass --allow-empty\./);
  assert.doesNotMatch(text, /no credential header/, 'a HAR without any request says nothing about credentials');
  assert.equal(json.gate, 'fail');
  assert.equal(json.checkedNothing.cause, 'the HAR holds no request');
  assert.match(md, /^# Integration traffic: FAIL/);
  assert.match(md, /\*\*FAIL: this gate checked nothing.*the HAR holds no request/);
  assert.match(
    junit,
    /<testcase classname="integration traffic" name="checked nothing"><failure message="FAIL: this gate checked nothing[^"]*the HAR holds no request/,
  );
  assert.match(junit, /failures="1"/);
});

test('an empty HAR without --base-url gets the same verdict, not "no request carries Accept-Version"', () => {
  const { run } = checkHarOf(EMPTY_HAR);
  assert.equal(run.exitCode, 1);
  assert.match(run.lines.join('\n'), /checked nothing.*: the HAR holds no request\./);
});

test('--allow-empty passes an empty HAR, saying so in every report', () => {
  const { run, json, md, junit } = checkHarOf(EMPTY_HAR, { allowEmpty: true });
  assert.equal(run.exitCode, 0);
  assert.match(run.lines.join('\n'), /This gate checked nothing \(--allow-empty: passing anyway\): the HAR holds no request\./);
  assert.equal(json.gate, 'pass');
  assert.equal(json.checkedNothing.allowed, true);
  assert.match(md, /passing anyway/);
  assert.match(junit, /name="checked nothing"><skipped message="This gate checked nothing \(--allow-empty: passing anyway\)/);
  assert.doesNotMatch(junit, /<failure/);
});

const page = (url: string, response?: RecordedExchange['response']): RecordedExchange => ({
  startedAt: '2026-01-01T00:00:00.000Z',
  request: { method: 'GET', url, headers: {} },
  ...(response ? { response } : {}),
});

test('a HAR whose requests all went elsewhere or got no answer names what it held instead', () => {
  const har = toHar(
    [
      page('https://cdn.example.test/app.js', { status: 200, headers: { 'content-type': 'text/javascript' }, body: '' }),
      page('http://127.0.0.1:9/institutions'),
    ],
    { name: 'x', version: '1' },
  );
  const { run } = checkHarOf(har, { baseUrl: 'http://127.0.0.1:9' });
  assert.equal(run.exitCode, 1);
  assert.match(
    run.lines.join('\n'),
    /checked nothing.*: the HAR holds no request to the platform API at http:\/\/127\.0\.0\.1:9 that the service answered: of its 2 request\(s\), 1 got no answer, 1 was no API call \(https:\/\/cdn\.example\.test\)\. Give --base-url/,
  );
});

test('a HAR with an API call is not "checked nothing"', () => {
  const har = toHar(
    [
      page('http://127.0.0.1:9/institutions', {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"institutions":[],"pagination":{"current_page":1,"per_page":25,"total_entries":0,"total_pages":1}}',
      }),
    ],
    { name: 'x', version: '1' },
  );
  const { run, json } = checkHarOf(har, { baseUrl: 'http://127.0.0.1:9' });
  assert.equal(json.checkedNothing, undefined);
  assert.doesNotMatch(run.lines.join('\n'), /checked nothing/);
});

test('a HAR above the bound is refused in MiB, the unit of --max-har-mb', () => {
  inTemp((dir) => {
    const file = join(dir, 'big.har');
    writeFileSync(file, Buffer.alloc(1.5 * 1024 * 1024, 0x20));
    assert.throws(
      () => readHar(file, { maxBytes: 1024 * 1024 }),
      (e: Error) => e instanceof IntegrationInputError && /is 1572864 bytes \(1\.5 MiB\), above the bound of 1 MiB \(--max-har-mb raises it\)$/.test(e.message),
    );
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('webhook-check refuses a URL where nothing listens before any property runs, naming the URL and the cause', async () => {
  const url = `http://127.0.0.1:${await closedPort()}/hook`;
  await assert.rejects(
    runWebhookCheck({ url, runs: 1, out: join(tmpdir(), 'svc-never-written'), env: {} }),
    (e: Error) =>
      e instanceof IntegrationInputError &&
      e.message.startsWith(`nothing answers at --url ${url}, so no property was run: `) &&
      /connection refused \(ECONNREFUSED\)/.test(e.message),
  );
});

test('any answer to the reachability request shows a listening handler, a 405 to a GET included', async () => {
  const server = createServer((_req, res) => res.writeHead(405).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    assert.equal(await unanswered('--url', `http://127.0.0.1:${port}/webhooks/{type}`, { requestMs: 5_000, maxBodyBytes: 1024 }), undefined);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('webhook-check refuses an --observe-url below which no observation counts answer, before any property runs, and announces nothing', async () => {
  // A handler that answers everything, as a team's does: the reachability GETs pass, the counts' path is a 404.
  const server = createServer((req, res) =>
    res.writeHead(req.method === 'GET' ? 404 : 200, { 'content-type': 'application/json' }).end('{"error":"not_found"}'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  let announced = false;
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await assert.rejects(
      runWebhookCheck({
        url: `${base}/webhooks/{type}`,
        observeUrl: `${base}/_observe/`,
        runs: 1,
        out: join(tmpdir(), 'svc-never-written'),
        env: {},
        onReachable: () => (announced = true),
      }),
      (e: Error) =>
        e instanceof IntegrationInputError &&
        e.message.startsWith(
          `--observe-url ${base}/_observe is not the base URL of an observation API: GET ${base}/_observe/_observe/processed-count answered 404`,
        ),
    );
    assert.equal(announced, false, 'the properties are announced only once every URL answered as it should');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
