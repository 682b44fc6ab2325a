/**
 * `versions --usage` on the worked example's usage file (examples/integration/usage.json,
 * what its traffic shows plus the fields its code declares it reads): of the breaking
 * differences between v20111101 and v20250224 only the two that touch it gate (a query
 * parameter it sends is removed; create member now requires data_request, which it does
 * not send), and the rest is reported apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { versionCheck, versionReportLines } from './versions.ts';

const USAGE = fileURLToPath(new URL('../examples/integration/usage.json', import.meta.url));

test('versions --usage on the example: only the two breaking differences that touch it, the rest apart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-example-versions-'));
  try {
    const common = { from: 'v20111101', to: 'v20250224', out: dir, allureResults: join(dir, 'allure') };
    const all = await versionCheck({ ...common, env: {} });
    const used = await versionCheck({ ...common, env: {}, usageFile: USAGE });
    assert.deepEqual(used.blocking.map((f) => `${f.operation} ${f.location} ${f.kind}`).sort(), [
      'GET /institutions request.query.supports_account_verification removed-request-parameter',
      'POST /users/{user_guid}/members request.body.data_request added-required-request-parameter',
    ]);
    assert.ok(all.blocking.length > used.blocking.length + 20, `without the usage file every breaking difference gates (${all.blocking.length})`);
    const apart = used.findings.filter((f) => f.breaking && !f.used);
    assert.equal(apart.length + used.blocking.length, used.findings.filter((f) => f.breaking).length);
    assert.ok(
      apart.some((f) => f.operation === 'GET /institutions' && f.operationUsed && /supports_account_statement/.test(f.location)),
      'a field of a used operation that the code does not read is apart',
    );
    assert.ok(
      apart.some((f) => f.operation === 'GET /managed_institutions' && !f.operationUsed),
      'an operation it does not use is apart',
    );
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    assert.match(md, /## Breaking differences that touch what the integration uses/);
    assert.match(md, /## Breaking differences apart/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the console says which used endpoints the new version deprecates, and when a usage file narrows nothing with reads', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-example-versions-'));
  try {
    const usage = JSON.parse(readFileSync(USAGE, 'utf8'));
    // The example's institutions read, without its declared reads, and a deprecated endpoint it now calls.
    usage.operations['GET /institutions'] = { ...usage.operations['GET /institutions'], reads: undefined };
    usage.operations['GET /managed_institutions'] = {
      api: 'platform',
      requestFields: [],
      responseFields: ['managed_institutions[].code'],
      reads: ['managed_institutions[].code'],
    };
    const file = join(dir, 'usage.json');
    writeFileSync(file, JSON.stringify(usage));
    const r = await versionCheck({ from: 'v20111101', to: 'v20250224', out: dir, allureResults: join(dir, 'allure'), env: {}, usageFile: file });
    const lines = versionReportLines(r, dir);
    assert.match(lines[0], /^Note: 1 operation\(s\) of the usage file declare no "reads": every field their recorded answers held counts as read/);
    assert.ok(
      lines.some((l) => l === 'Deprecated in v20250224, still used by the integration (not breaking; plan the move): GET /managed_institutions'),
      lines.join('\n'),
    );
    assert.ok(!r.blocking.some((f) => f.kind === 'deprecated-endpoint'), 'a deprecation does not gate');
    // The example's own file declares what it reads: no note.
    const own = await versionCheck({ from: 'v20111101', to: 'v20250224', out: dir, allureResults: join(dir, 'allure'), env: {}, usageFile: USAGE });
    assert.ok(!versionReportLines(own, dir).some((l) => l.startsWith('Note:')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
