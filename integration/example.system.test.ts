/**
 * The worked example (examples/integration) through the recording proxy, the offline HAR
 * check and the upgrade check with its usage file: its planted request error is reported
 * naming the statement, its correct traffic raises nothing at all (no finding of any
 * tier), and its committed usage file is what its traffic shows. (The tolerance matrix of
 * the same example: tolerance-example.system.test.ts; `versions --usage` on its usage file:
 * upgrade/versions-usage.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allFailures, type TrafficReport } from './judge.ts';
import { checkHar, runProxy } from './traffic.ts';
import { readUsageFile, usageFromExchanges } from './usage.ts';
import { readHar } from './har.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE_TEST = ['node', '--test', 'examples/integration/test/connect.test.mjs'];
const USAGE = join(ROOT, 'examples/integration/usage.json');

/** The one finding the planted request error must give, and nothing else. */
function assertOnlyThePlantedError(r: TrafficReport) {
  const findings = allFailures(r);
  assert.equal(findings.length, 1, `exactly one finding, got:\n${findings.map((f) => `${f.check} ${f.operation} ${f.location}: ${f.message}`).join('\n')}`);
  const [f] = findings;
  assert.deepEqual(
    [f.check, f.operation, f.location, f.tier, f.severity],
    ['request_paging', 'GET /institutions', 'request.query.records_per_page', 'stated', 'error'],
  );
  assert.match(f.message, /records_per_page=5000 \/ Expected: at most 1000/);
  assert.match(f.rule, /Limits, the table's row "records_per_page maximum": 1000/);
  const correct = r.exchanges.filter((x) => x.failures.length === 0);
  assert.ok(correct.length >= 6, `the example's other exchanges (users, credentials, members, status, accounts, delete) are judged: ${correct.length}`);
  assert.ok(
    correct.every((x) => x.kind === 'api'),
    'every exchange of the example is an API call',
  );
}

test('the example through the proxy: its own test passes, the planted request error is the one finding, 0 false alarms; the recording says the same offline and gives the committed usage file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-example-'));
  try {
    const run = await runProxy({
      env: {},
      out: join(dir, 'proxy'),
      command: EXAMPLE_TEST,
      cwd: ROOT,
      live: false,
      echoCommand: false,
      commandTimeoutMs: 50_000,
    });
    assert.equal(run.command?.code, 0, `the team's own test passes through the proxy:\n${run.command?.tail}`);
    assertOnlyThePlantedError(run.report);
    assert.equal(run.exitCode, 1, 'a stated finding fails the gate');
    assert.ok(run.lines.some((l) => /\[error\] request_paging GET \/institutions at request\.query\.records_per_page/.test(l)));
    assert.ok(
      run.report.notes.some((n) => /v20111101 is deprecated by the target/.test(n)),
      'the deprecated version is a note, not a finding',
    );

    const recording = join(dir, 'proxy', 'recording.har');
    const offline = checkHar({ file: recording, env: {}, out: join(dir, 'har') });
    assertOnlyThePlantedError(offline.report);
    assert.equal(offline.exitCode, 1);

    const committed = readUsageFile(USAGE);
    const har = readHar(recording);
    const again = usageFromExchanges(har.exchanges, {
      bases: { platform: [run.url], audience: [], 'test-host': [] },
      source: committed.source,
      keep: committed,
    });
    assert.deepEqual(
      again,
      committed,
      'examples/integration/usage.json is what the traffic shows (regenerate: svc-conformance proxy --usage-out examples/integration/usage.json -- node --test examples/integration/test/connect.test.mjs)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("through the proxy, the simulator's OAuth window URIs point at the proxy: a second load and a stored URI are stated findings", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-oauth-'));
  try {
    const script = join(ROOT, 'examples/integration/oauth-window-misuse.mjs');
    const run = await runProxy({
      env: {},
      out: join(dir, 'out'),
      command: ['node', script],
      cwd: ROOT,
      live: false,
      echoCommand: false,
      commandTimeoutMs: 30_000,
    });
    assert.equal(run.command?.code, 0, run.command?.tail);
    assert.deepEqual(
      run.report.exchanges.flatMap((x) => x.failures),
      [],
      'the two API calls are correct',
    );
    assert.deepEqual(
      run.report.session.map((f) => [f.check, f.tier]),
      [
        ['oauth_window_uri_use', 'stated'],
        ['oauth_window_uri_use', 'stated'],
      ],
    );
    assert.match(run.report.session[0].rule, /single use/);
    assert.match(run.report.session[1].rule, /must not be hard-coded/);
    assert.equal(run.exitCode, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
