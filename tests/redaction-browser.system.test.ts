/**
 * Secrets typed into pages never land in an artefact (Developers' guide, Standards: "no
 * credential or test password in any artefact"). The browser scenarios type the test
 * institution's password into the widget, and the MFA scenarios send the correct-answer
 * word: unlike the API key, these go through Playwright's own recording (action titles
 * and parameters, DOM snapshots, the network bodies of a trace, error-context.md's page
 * snapshot), which the checked client's redaction never sees.
 *
 * One Playwright run of the project's configuration (its reporters: list, HTML, JUnit,
 * Allure, the tier summary; plus the nightly's JSON) with MARKER values for every
 * credential, the browser scenarios and a few API ones, traces kept for every test
 * (--trace on), and two catalogue faults in force so that scenarios fail after the
 * secrets were used: widget-member-deleted-renamed fails the widget scenario
 * that types the success password (its trace, its error-context.md with the page
 * snapshot), wrong-answer-connects (with SVC_STRICT=1) fails the MFA scenarios that
 * sent an answer built from the correct-answer word. Then every file of the output
 * folder (zip entries decompressed, the HTML report's data folder, allure-results) and
 * the console output are scanned for every marker, its base64 and URL encodings, the
 * Basic credential pairs, and any unredacted Basic/Bearer credential. Must find 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { runProcess, PASSWORD_SCENARIOS } from '../targets/index.ts';
import { scanForSecrets } from '../reports/secret-scan.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('a browser run with marker credentials, failures and traces leaves no typed secret in any artefact', { timeout: 120_000 }, async () => {
  const tag = randomBytes(6).toString('hex');
  const markers: Record<string, string> = {
    SVC_CLIENT_ID: `mk-client-${tag}`,
    SVC_API_KEY: `mk-apikey-${tag}`,
    SVC_AUDIENCE_CLIENT_ID: `mk-audclient-${tag}`,
    SVC_AUDIENCE_CLIENT_SECRET: `mk-audsecret-${tag}`,
    SVC_CORRECT_ANSWER: `mk-answer-${tag}`,
    ...Object.fromEntries(PASSWORD_SCENARIOS.map((s) => [`SVC_TEST_PASSWORD_${s}`, `mk-pw-${s.toLowerCase().replace(/_/g, '-')}-${tag}`])),
  };
  const out = join(root, 'reports/out/redaction-browser-check');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const env = {
    ...process.env,
    ...markers,
    FORCE_COLOR: '0',
    CI: '1',
    SVC_REPORTS_OUT: out,
    SVC_HTTP_TIMING_DIR: join(out, 'http-timing'),
    SVC_SIM_FAULTS: 'widget-member-deleted-renamed,wrong-answer-connects',
    SVC_STRICT: '1',
  } as NodeJS.ProcessEnv;
  delete env.SVC_BASE_URL;
  const run = await runProcess(
    'npx',
    [
      'playwright',
      'test',
      '-c',
      'nightly/playwright.config.ts',
      '--project',
      'browser',
      '--project',
      'api',
      '--trace',
      'on',
      '--workers',
      '2',
      // Every browser scenario; the MFA scenarios that send an answer, the audience one (its secret).
      '--grep',
      '@widgets|@oauth|@audience|MFA: answered wrong|text MFA: a challenge',
      'scenarios/browser/',
      'scenarios/api/members.spec.ts',
      'scenarios/api/audience.spec.ts',
    ],
    { cwd: root, env, timeoutMs: 100_000 },
  );
  // The console is an artefact too (a CI log).
  writeFileSync(join(out, 'console.txt'), `${run.stdout}\n${run.stderr}`);
  assert.ok(!run.timedOut, 'the Playwright run timed out');

  const report = JSON.parse(readFileSync(join(out, 'playwright.json'), 'utf8')) as { stats: { expected: number; unexpected: number } };
  const files = filesUnder(out);
  const traces = files.filter((f) => f.endsWith('.zip') && f.includes('test-results'));
  const named = Object.entries(markers);
  const secrets = [
    ...named.filter(([k]) => k !== 'SVC_CLIENT_ID' && k !== 'SVC_AUDIENCE_CLIENT_ID').map(([, v]) => v),
    Buffer.from(`${markers.SVC_CLIENT_ID}:${markers.SVC_API_KEY}`).toString('base64'),
    Buffer.from(`${markers.SVC_AUDIENCE_CLIENT_ID}:${markers.SVC_AUDIENCE_CLIENT_SECRET}`).toString('base64'),
  ];
  const result = scanForSecrets(out, secrets);
  const password = `secret #${secrets.indexOf(markers.SVC_TEST_PASSWORD_SUCCESS) + 1}`;
  const withPassword = new Set(result.hits.filter((h) => h.what === password || h.what.startsWith(`${password} `)).map((h) => h.file.split(/[!#]/)[0]));
  const line =
    `redaction (browser): ${result.artifacts} artefacts scanned (${(result.bytes / 1e6).toFixed(1)} MB, zip entries included), ` +
    `${traces.length} traces, ${report.stats.unexpected} failed scenarios; secrets found: ${result.hits.length}; ` +
    `files holding the success password: ${withPassword.size}`;
  console.log(line);
  for (const f of [...withPassword].slice(0, 30)) console.log(`  success password in ${f}`);
  writeFileSync(join(out, 'scan.txt'), `${line}\n${result.hits.map((h) => `${h.file}: ${h.what}`).join('\n')}\n`);
  // The run must have produced what the scan is about, else 0 hits proves nothing.
  assert.ok(
    report.stats.unexpected >= 2,
    `the faults failed ${report.stats.unexpected} scenarios (expected the widget connect scenario and the wrong-answer MFA ones)`,
  );
  assert.ok(report.stats.expected >= 10, `only ${report.stats.expected} scenarios passed`);
  assert.ok(traces.length >= 10, `only ${traces.length} trace zips kept`);
  // The widget scenario fails back on the credentials view: its page snapshot shows the filled password field.
  const filledField = files.some((f) => f.endsWith('error-context.md') && /textbox "Password"[^\n]*: \S/.test(readFileSync(f, 'utf8')));
  assert.ok(filledField, 'no error-context.md shows the filled password field');
  assert.ok(
    files.some((f) => f.includes(join('html', 'data'))),
    'the HTML report copied no attachment',
  );
  assert.ok(
    files.some((f) => f.includes('allure-results') && f.endsWith('.zip')),
    'allure-results holds no trace',
  );
  // The widget scenario typed the password and the widget posted it: the credentials POST
  // (the simulator widget's {institution_code, username, password}) is in a browser trace's network log.
  const credentialsPost = /institution_code\\?"\s*:\s*\\?"[^"\\]*\\?"\s*,\s*\\?"username\\?"\s*:\s*\\?"[^"\\]*\\?"\s*,\s*\\?"password\\?"\s*:/;
  const posted = traces
    .filter((t) => /-browser[/\\]/.test(t))
    .some((t) => new AdmZip(t).getEntries().some((e) => credentialsPost.test(e.getData().toString('utf8'))));
  assert.ok(posted, 'no trace holds the widget credentials POST (the password was never typed)');

  assert.deepEqual(result.hits.slice(0, 30), [], line);
});
