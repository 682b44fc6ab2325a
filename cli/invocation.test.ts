/**
 * What the commands check of an output path before their work (outputPath), and the sentence
 * a Node system error caused by the user's input becomes (systemErrorSentence, exit 2 in
 * cli/main.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile } from '../targets/index.ts';
import { ConfigError } from './config/load.ts';
import { holdReportsFolder, outputPath, REPORTS_LOCK, systemErrorSentence, unnamedTargetWarning, UsageError } from './invocation.ts';

test('outputPath: a folder for a file, a file for a folder, a file on the way: a UsageError naming the option and the cause', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-output-path-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'f');
  writeFileSync(file, '');
  mkdirSync(join(dir, 'd'));
  const refused = (option: string, path: string, kind: 'file' | 'folder', cause: RegExp) =>
    assert.throws(
      () => outputPath(option, path, kind),
      (e: unknown) => e instanceof UsageError && e.message.startsWith(`${option} ${path}: cannot write there: `) && cause.test(e.message),
    );
  refused('--json', join(dir, 'd'), 'file', /d is a folder$/);
  refused('--out', file, 'folder', /f is a file, not a folder$/);
  refused('--json', join(file, 'x', 'y.json'), 'file', /f is a file, not a folder$/);
  // What may be written: an existing file, a new one in new folders, an existing or new folder.
  assert.equal(outputPath('--json', file, 'file'), file);
  assert.equal(outputPath('--json', join(dir, 'new', 'deeper', 'x.json'), 'file'), join(dir, 'new', 'deeper', 'x.json'));
  assert.equal(outputPath('--out', join(dir, 'd'), 'folder'), join(dir, 'd'));
  assert.equal(outputPath('--out', join(dir, 'e', 'f'), 'folder'), join(dir, 'e', 'f'));
});

test('systemErrorSentence: a port taken, a path that cannot be written; nothing for other errors', () => {
  const errno = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);
  assert.equal(
    systemErrorSentence(errno('listen EADDRINUSE', { code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 4020 })),
    'port 4020 on 127.0.0.1 is in use (another process listens there): choose another --port, or 0 for a free one',
  );
  assert.match(
    systemErrorSentence(errno('listen EACCES', { code: 'EACCES', syscall: 'listen', address: '127.0.0.1', port: 80 })) ?? '',
    /port 80 .* may not be opened/,
  );
  assert.equal(systemErrorSentence(errno('EISDIR', { code: 'EISDIR', syscall: 'open', path: '/x/out' })), 'cannot open /x/out: it is a folder (EISDIR)');
  assert.equal(
    systemErrorSentence(errno('EEXIST', { code: 'EEXIST', syscall: 'mkdir', path: '/x/f' })),
    'cannot create the folder /x/f: a file of that name is in the way (EEXIST)',
  );
  // Not the user's input: an error of the engine stays an error (exit 1, --debug shows where).
  assert.equal(systemErrorSentence(new Error('boom')), undefined);
  assert.equal(systemErrorSentence(errno('socket hang up', { code: 'ECONNRESET' })), undefined);
  assert.equal(systemErrorSentence('EISDIR'), undefined);
});

test('credentials exported for a target the run does not meet are named: the embedded simulator, no config, no SVC_BASE_URL', () => {
  const exported = { SVC_CLIENT_ID: 'team-client', SVC_API_KEY: 'team-key' };
  const warning = unnamedTargetWarning(loadProfile(exported), undefined);
  assert.match(
    warning ?? '',
    /^svc-conformance: warning: SVC_API_KEY is set, but no config file in \S+ and SVC_BASE_URL is unset: this tests the embedded simulator/,
  );
  assert.doesNotMatch(warning ?? '', /team-key/);
  assert.match(unnamedTargetWarning(loadProfile(exported), '/x/svc.config.json') ?? '', /the config file \/x\/svc\.config\.json names no target\.baseUrl/);
  // A named target, no credentials, or a simulator named by its URL: nothing to say.
  const real = { ...exported, SVC_BASE_URL: 'https://int.example' };
  assert.equal(unnamedTargetWarning(loadProfile(real), undefined), undefined);
  assert.equal(unnamedTargetWarning(loadProfile({}), undefined), undefined);
  const sim = { ...exported, SVC_SIMULATOR_URL: 'http://127.0.0.1:4010' };
  assert.equal(unnamedTargetWarning(loadProfile(sim), undefined), undefined);
});

test('a reports folder is held by one run: a second is refused naming the first; a hold whose process is gone, or older than the run bound, or unreadable, is taken over', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-reports-hold-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'reports');
  const lock = join(out, REPORTS_LOCK);
  const HOUR = 3_600_000;
  const release = holdReportsFolder(out, 'the reports folder', HOUR);
  assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.pid);
  assert.throws(
    () => holdReportsFolder(out, 'the reports folder', HOUR),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.message.startsWith(`the reports folder ${out} is being written by another run (process ${process.pid}, started `) &&
      e.message.includes(`delete ${lock}`),
  );
  release();
  assert.equal(existsSync(lock), false, 'released');
  // A run killed outright leaves its hold: its process is gone.
  const gone = 4_194_305; // above Linux's largest process id (pid_max 2^22): no such process
  const held = (pid: number, started: string) => writeFileSync(lock, JSON.stringify({ pid, started }));
  held(gone, new Date().toISOString());
  holdReportsFolder(out, 'the reports folder', HOUR)();
  // A live process (a reused id) whose hold is older than any run may last.
  held(process.pid, new Date(Date.now() - 2 * HOUR).toISOString());
  holdReportsFolder(out, 'the reports folder', HOUR)();
  writeFileSync(lock, '{"pid":');
  holdReportsFolder(out, 'the reports folder', HOUR)();
  assert.equal(existsSync(lock), false);
});
