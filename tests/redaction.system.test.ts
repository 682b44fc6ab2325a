/**
 * Secrets never land in reports/out (DESIGN.md, "What it is for": it leaks nothing; Developers' guide, Standards). Runs a
 * reduced nightly — conformance @smoke, load smoke, report build — with MARKER
 * credentials given to the simulator and the suites through the same env vars a real
 * environment uses, then scans every file under reports/out (inside zips and the HTML
 * report's embedded archive too) for each marker, its base64 and URL encodings, the
 * Basic credential pairs and any unredacted Basic/Bearer credential. Must find 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNightly } from '../nightly/nightly.ts';
import { scanForSecrets } from '../reports/secret-scan.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

test('a pipeline run with marker credentials leaves none of them in any artifact', { timeout: 300_000 }, async () => {
  const tag = randomBytes(6).toString('hex');
  const markers = {
    SVC_CLIENT_ID: `marker-client-${tag}`,
    SVC_API_KEY: `marker-apikey-${tag}`,
    SVC_AUDIENCE_CLIENT_ID: `marker-audclient-${tag}`,
    SVC_AUDIENCE_CLIENT_SECRET: `marker-audsecret-${tag}`,
    SVC_TEST_PASSWORD_SUCCESS: `marker-password-${tag}`,
  };
  const out = join(root, 'reports/out/redaction-check');
  const summary = await runNightly({
    skip: ['selftest'],
    grep: '@smoke',
    env: markers,
    out,
    historyDir: join(out, 'history'),
    log: () => {},
  });
  // The run must have produced artifacts worth scanning, else 0 hits proves nothing.
  assert.ok(summary.conformance && summary.conformance.passed + summary.conformance.failed > 0, 'the smoke conformance run produced no results');
  assert.ok(existsSync(join(out, 'allure-report', 'index.html')), 'no Allure report was built');

  const secrets = [
    markers.SVC_API_KEY,
    markers.SVC_AUDIENCE_CLIENT_SECRET,
    markers.SVC_TEST_PASSWORD_SUCCESS,
    Buffer.from(`${markers.SVC_CLIENT_ID}:${markers.SVC_API_KEY}`).toString('base64'),
    Buffer.from(`${markers.SVC_AUDIENCE_CLIENT_ID}:${markers.SVC_AUDIENCE_CLIENT_SECRET}`).toString('base64'),
  ];
  // Its own output only: other tests of the same unit run write beside it in reports/out
  // meanwhile (a trace zip half written is not this run's artefact).
  const result = scanForSecrets(out, secrets);
  const line = `redaction: ${result.artifacts} artifacts scanned (${(result.bytes / 1e6).toFixed(1)} MB, zip entries included), secrets found: ${result.hits.length}`;
  console.log(line);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'scan.txt'), `${line}\n`);
  assert.ok(result.artifacts > 50, `only ${result.artifacts} artifacts scanned`);
  assert.deepEqual(result.hits.slice(0, 20), [], line);
});
