import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { createArtefactRedactor, redactArtefacts } from './artefact-redaction.ts';
import RedactionReporter from './redaction-reporter.ts';

const PASSWORD = 'typed-pw-5f1e2d';
const ANSWER = 'answer-word-77a';

function zipOf(entries: Record<string, Buffer | string>): Buffer {
  const zip = new AdmZip();
  for (const [name, data] of Object.entries(entries)) zip.addFile(name, Buffer.isBuffer(data) ? data : Buffer.from(data));
  return zip.toBuffer();
}

function entriesOf(content: Buffer): Record<string, Buffer> {
  return Object.fromEntries(new AdmZip(content).getEntries().map((e) => [e.entryName, e.getData()]));
}

test('a trace zip loses the password from every entry (network body, DOM snapshot, nested zip) and stays readable', () => {
  const r = createArtefactRedactor([PASSWORD]);
  const trace = zipOf({
    'test.trace': `{"type":"before","title":"Fill \\"${PASSWORD}\\""}\n`,
    '1-trace.trace': `{"type":"frame-snapshot","html":["INPUT",{"__playwright_value_":"${PASSWORD}","type":"password"}]}\n`,
    'resources/abc.json': JSON.stringify({ username: 'u', password: PASSWORD }),
    'nested.zip': zipOf({ 'inner.txt': `p=${encodeURIComponent(PASSWORD)}` }),
    'clean.txt': 'nothing secret here',
  });
  const out = r.buffer(trace);
  assert.ok(out, 'the archive held the password');
  const entries = entriesOf(out);
  for (const [name, data] of Object.entries(entries)) assert.ok(!data.includes(PASSWORD), name);
  for (const line of entries['1-trace.trace'].toString().trim().split('\n')) JSON.parse(line);
  assert.match(entries['resources/abc.json'].toString(), /"password":"\[REDACTED\]"/);
  assert.ok(!entriesOf(entries['nested.zip'])['inner.txt'].includes(encodeURIComponent(PASSWORD)));
  assert.equal(entries['clean.txt'].toString(), 'nothing secret here');
});

test('a binary file keeps its length; only the secret bytes are overwritten', () => {
  const r = createArtefactRedactor([PASSWORD]);
  const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]), Buffer.from(PASSWORD), Buffer.from([0, 2, 3])]);
  const out = r.buffer(image)!;
  assert.equal(out.length, image.length);
  assert.ok(!out.includes(PASSWORD));
  assert.deepEqual([...out.subarray(0, 7)], [...image.subarray(0, 7)]);
  assert.equal(image.includes(PASSWORD), true, 'the input buffer is not modified');
});

test('a file without a secret is left untouched; one with a secret or an unredacted Basic credential is rewritten', () => {
  const dir = mkdtempSync(join(tmpdir(), 'artefact-redaction-'));
  try {
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'a/clean.md'), 'Basic authentication is described in the specification');
    writeFileSync(join(dir, 'a/b/error-context.md'), `- textbox "Password": ${PASSWORD}\n- answer ${ANSWER}`);
    writeFileSync(join(dir, 'a/b/log.txt'), `Authorization: Basic ${Buffer.from('someone:key-123').toString('base64')}`);
    const pass = redactArtefacts(dir, [PASSWORD, ANSWER]);
    assert.equal(pass.files, 3);
    assert.deepEqual(pass.rewritten.map((p) => p.slice(dir.length + 1)).sort(), ['a/b/error-context.md', 'a/b/log.txt']);
    assert.equal(readFileSync(join(dir, 'a/clean.md'), 'utf8'), 'Basic authentication is described in the specification');
    assert.equal(readFileSync(join(dir, 'a/b/error-context.md'), 'utf8'), '- textbox "Password": [REDACTED]\n- answer [REDACTED]');
    assert.equal(readFileSync(join(dir, 'a/b/log.txt'), 'utf8'), 'Authorization: Basic [REDACTED]');
    assert.deepEqual(redactArtefacts(join(dir, 'missing'), [PASSWORD]), { files: 0, rewritten: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the redaction reporter rewrites step titles, errors, stdout, annotations and attachment files before the reporters after it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'redaction-reporter-'));
  try {
    const reporter = new RedactionReporter({ targetEnv: { SVC_TEST_PASSWORD_SUCCESS: PASSWORD } });
    reporter.onBegin({ projects: [{ outputDir: dir, use: {} }] } as never, {} as never);
    const tracePath = join(dir, 'trace.zip');
    writeFileSync(tracePath, zipOf({ 'test.trace': `Fill "${PASSWORD}"` }));
    const attachment = { name: 'trace', contentType: 'application/zip', path: tracePath };
    const inline = { name: 'exchange', contentType: 'application/json', body: Buffer.from(`{"value":"${PASSWORD}"}`) };
    const step = {
      title: `Fill "${PASSWORD}"`,
      titlePath: () => ['parent', `Fill "${PASSWORD}"`],
      steps: [],
      attachments: [inline],
      error: { message: `expected ${PASSWORD}` },
    };
    reporter.onStepBegin({} as never, {} as never, step as never);
    assert.equal(step.title, 'Fill "[REDACTED]"');
    assert.deepEqual(step.titlePath(), ['parent', 'Fill "[REDACTED]"']);
    reporter.onStepEnd({} as never, {} as never, step as never);
    assert.equal(step.error.message, 'expected [REDACTED]');
    assert.equal(inline.body.toString(), '{"value":"[REDACTED]"}');
    const result = {
      errors: [{ message: `locator.fill: ${PASSWORD}`, stack: `Error: ${PASSWORD}\n at x` }],
      steps: [step],
      annotations: [{ type: 'note', description: `sent ${PASSWORD}` }],
      attachments: [attachment, inline],
      stdout: [`printed ${PASSWORD}`],
      stderr: [Buffer.from(`err ${PASSWORD}`)],
    };
    reporter.onTestEnd({ annotations: [] } as never, result as never);
    assert.equal(result.errors[0].message, 'locator.fill: [REDACTED]');
    assert.ok(!result.errors[0].stack.includes(PASSWORD));
    assert.equal(result.annotations[0].description, 'sent [REDACTED]');
    assert.equal(result.stdout[0], 'printed [REDACTED]');
    assert.equal(result.stderr[0].toString(), 'err [REDACTED]');
    assert.equal(entriesOf(readFileSync(tracePath))['test.trace'].toString(), 'Fill "[REDACTED]"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
