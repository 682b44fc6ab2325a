import { test } from 'node:test';
import assert from 'node:assert/strict';
import AdmZip from 'adm-zip';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { looksLikeCredential, scanForSecrets } from './secret-scan.ts';

test('the scanner finds a secret in plain text, base64, a zip and an embedded HTML-report zip', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'a'));
  writeFileSync(join(dir, 'a/plain.txt'), 'key=marker-key-1');
  writeFileSync(join(dir, 'b64.json'), JSON.stringify({ h: Buffer.from('marker-key-1').toString('base64') }));
  const zip = new AdmZip();
  zip.addFile('trace/network.json', Buffer.from('{"authorization":"x marker-key-1"}'));
  writeFileSync(join(dir, 'trace.zip'), zip.toBuffer());
  writeFileSync(join(dir, 'index.html'), `<script>window.r = "data:application/zip;base64,${zip.toBuffer().toString('base64')}";</script>`);
  writeFileSync(join(dir, 'clean.txt'), 'Basic authentication with Basic [REDACTED] and Bearer [REDACTED]');
  const r = scanForSecrets(dir, ['marker-key-1']);
  assert.deepEqual(r.hits.map((h) => h.file).sort(), ['a/plain.txt', 'b64.json', 'index.html#embedded.zip!trace/network.json', 'trace.zip!trace/network.json']);
});

test('an unredacted Basic or Bearer credential is found, prose is not', () => {
  assert.equal(looksLikeCredential('Basic', Buffer.from('id:secret').toString('base64')), true);
  assert.equal(looksLikeCredential('Basic', 'authentication'), false);
  assert.equal(looksLikeCredential('Bearer', 'eyJhbGciOi.x-1'), true);
  assert.equal(looksLikeCredential('Bearer', 'authentication'), false);
});

test('an archive that cannot be opened is reported, never passed as clean, and its bytes are still searched', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const zip = new AdmZip();
  zip.addFile('trace/network.json', Buffer.from('{"authorization":"x marker-key-1"}'));
  const whole = zip.toBuffer();
  // A trace zip cut short (a writer still at work, a disk full): no end-of-archive record.
  writeFileSync(join(dir, 'cut.zip'), whole.subarray(0, whole.length - 30));
  const r = scanForSecrets(dir, ['marker-key-1']);
  assert.ok(
    r.hits.some((h) => h.file === 'cut.zip' && /could not be opened/.test(h.what)),
    JSON.stringify(r.hits),
  );
});
