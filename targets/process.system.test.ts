/**
 * A stopped run leaves no process behind (targets/process.ts): a child runs in its own
 * process group; a stop of the parent reaches the whole group; what is left of the group
 * when the child ends is killed and reported. The stand-in for a Playwright run is a
 * "runner" that starts a "worker" ignoring SIGINT and SIGTERM, as Playwright's workers do,
 * and leaves it behind when it exits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processGroupMembers, runProcess } from './process.ts';

const PROCESS_TS = fileURLToPath(new URL('./process.ts', import.meta.url));

/** A worker that ignores the stop signals, and says so once it does. */
const WORKER = "process.on('SIGTERM', () => {}); process.on('SIGINT', () => {}); setInterval(() => {}, 1000); console.log('ready');";
/** A runner: starts the worker, prints both ids, exits 100 ms after SIGTERM or SIGINT without stopping the worker. */
const RUNNER = `
const { spawn } = require('node:child_process');
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => setTimeout(() => process.exit(0), 100));
const w = spawn(process.execPath, ['-e', ${JSON.stringify(WORKER)}], { stdio: ['ignore', 'pipe', 'ignore'] });
// The ids once the worker ignores the signals too (a stop before that is not the case under test).
w.stdout.once('data', () => console.log(JSON.stringify({ runner: process.pid, worker: w.pid })));
const runnerKeepsRunning = setInterval(() => {}, 1000);
`;

const alive = (pgid: number) => processGroupMembers(pgid);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `node --import tsx -e code` as the parent under test; resolves with the runner's ids once printed. */
function parent(code: string) {
  const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => p.once('exit', (code, signal) => r({ code, signal })));
  const ids = new Promise<{ runner: number; worker: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ids printed within 20 s:\n${out}`)), 20_000).unref();
    p.stdout.on('data', () => {
      const m = /\{"runner":\d+,"worker":\d+\}/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(JSON.parse(m[0]));
      }
    });
  });
  ids.catch(() => {}); // awaited by the tests that print ids; the others never read it
  return { p, exited, ids, output: () => out };
}

test('runForwardingSignals: a SIGTERM of the parent reaches the whole group; the parent exits 143 and no worker is left', { timeout: 30_000 }, async () => {
  const run = parent(`
    import { runForwardingSignals } from ${JSON.stringify(PROCESS_TS)};
    await runForwardingSignals(process.execPath, ['-e', ${JSON.stringify(RUNNER)}], { stdio: ['ignore', 'inherit', 'inherit'], graceMs: 5000 });
    console.log('resolved without a stop');
  `);
  const { runner, worker } = await run.ids;
  assert.deepEqual(alive(runner).sort(), [runner, worker].sort(), "runner and worker share the runner's group, apart from the parent");
  const started = performance.now();
  run.p.kill('SIGTERM');
  const { code } = await run.exited;
  assert.equal(code, 143, `the parent exits as stopped by SIGTERM (128 + 15):\n${run.output()}`);
  assert.ok(performance.now() - started < 4_000, 'it did not wait out the grace: the runner ended and its leftover was killed');
  assert.ok(!run.output().includes('resolved without a stop'));
  await sleep(100);
  assert.deepEqual(alive(runner), [], 'no process of the group is left');
});

test('runForwardingSignals: a worker that ignores the signal and a runner that never ends are killed after the grace', { timeout: 30_000 }, async () => {
  const stubborn = RUNNER.replace(
    "for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => setTimeout(() => process.exit(0), 100));",
    "for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => {});",
  );
  assert.notEqual(stubborn, RUNNER);
  const run = parent(`
    import { runForwardingSignals } from ${JSON.stringify(PROCESS_TS)};
    await runForwardingSignals(process.execPath, ['-e', ${JSON.stringify(stubborn)}], { stdio: ['ignore', 'inherit', 'inherit'], graceMs: 500 });
  `);
  const { runner } = await run.ids;
  const started = performance.now();
  run.p.kill('SIGINT');
  const { code } = await run.exited;
  const took = performance.now() - started;
  assert.equal(code, 130, `the parent exits as stopped by SIGINT (128 + 2):\n${run.output()}`);
  assert.ok(took >= 450 && took < 5_000, `killed after the grace, ${Math.round(took)} ms`);
  await sleep(100);
  assert.deepEqual(alive(runner), []);
});

test("runProcess: a stop of the parent kills the child's group, and the parent still ends by the signal", { timeout: 30_000 }, async () => {
  const run = parent(`
    import { runProcess } from ${JSON.stringify(PROCESS_TS)};
    const res = await runProcess(process.execPath, ['-e', ${JSON.stringify(RUNNER)}], { cwd: process.cwd(), env: process.env, timeoutMs: 60_000 });
    console.log('resolved', JSON.stringify(res));
  `);
  // runProcess captures the child's stdout: the ids come through the group instead.
  const started = performance.now();
  let runner: number | undefined;
  while (!runner && performance.now() - started < 20_000) {
    await sleep(100);
    // The runner leads a group of its own (runner and worker), a child of the parent under test.
    const led = groupsLedByChildrenOf(run.p.pid!)[0];
    if (led && alive(led).length === 2) runner = led;
  }
  assert.ok(runner, `the runner started:\n${run.output()}`);
  run.p.kill('SIGTERM');
  const { signal } = await run.exited;
  assert.equal(signal, 'SIGTERM', `the parent ended by the signal, as without the guard:\n${run.output()}`);
  await sleep(100);
  assert.deepEqual(alive(runner), [], 'runner and worker are gone');
});

test('runProcess: what is left of the group when the child ends is killed and reported', { timeout: 30_000 }, async () => {
  const leaver = RUNNER.replace(
    'const runnerKeepsRunning = setInterval(() => {}, 1000);',
    "w.stdout.once('data', () => setTimeout(() => process.exit(0), 100));",
  );
  assert.notEqual(leaver, RUNNER);
  const res = await runProcess(process.execPath, ['-e', leaver], { cwd: process.cwd(), env: process.env, timeoutMs: 20_000 });
  const { runner, worker } = JSON.parse(/\{"runner":\d+,"worker":\d+\}/.exec(res.stdout)![0]) as { runner: number; worker: number };
  assert.equal(res.pid, runner);
  assert.deepEqual(res.leftover, [worker], 'the worker outlived its runner');
  await sleep(100);
  assert.deepEqual(alive(runner), [], 'and was killed');
});

/** Process ids of group leaders whose parent is `ppid` (Linux /proc). */
function groupsLedByChildrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const p of processTable()) if (p.ppid === ppid && p.pgrp === p.pid) out.push(p.pid);
  return out;
}

function processTable(): Array<{ pid: number; ppid: number; pgrp: number }> {
  const out: Array<{ pid: number; ppid: number; pgrp: number }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(name), ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      /* gone */
    }
  }
  return out;
}

test("runForwardingSignals without a stop resolves with the child's exit; with exitOnStop false a stop resolves too", { timeout: 30_000 }, async () => {
  const { runForwardingSignals } = await import('./process.ts');
  const plain = await runForwardingSignals(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });
  assert.deepEqual(plain, { code: 3, signal: null, exitCode: 3, leftover: [] });
  const run = parent(`
    import { runForwardingSignals } from ${JSON.stringify(PROCESS_TS)};
    const r = await runForwardingSignals(process.execPath, ['-e', ${JSON.stringify(RUNNER)}], { stdio: ['ignore', 'inherit', 'inherit'], exitOnStop: false });
    console.log('resolved', JSON.stringify({ exitCode: r.exitCode, stoppedBy: r.stoppedBy, leftover: r.leftover.length }));
  `);
  const { runner } = await run.ids;
  run.p.kill('SIGTERM');
  const { code } = await run.exited;
  assert.equal(code, 0, run.output());
  assert.match(run.output(), /resolved \{"exitCode":143,"stoppedBy":"SIGTERM","leftover":1\}/);
  await sleep(100);
  assert.deepEqual(alive(runner), []);
});

test('runForwardingSignals with timeoutMs: a child still running then has its whole group killed, and says so', { timeout: 30_000 }, async () => {
  const { runForwardingSignals } = await import('./process.ts');
  const quick = await runForwardingSignals(process.execPath, ['-e', 'process.exit(0)'], { stdio: 'ignore', timeoutMs: 60_000 });
  assert.equal(quick.timedOut, undefined, 'a child that ends in time is not timed out');
  const r = await runForwardingSignals(process.execPath, ['-e', RUNNER], { stdio: 'ignore', timeoutMs: 300 });
  assert.equal(r.timedOut, true);
  assert.equal(r.signal, 'SIGKILL');
  assert.equal(r.exitCode, 137);
});

test('runChild-style stop: a SIGTERM of the parent reaches the runner as SIGINT (Playwright stops gracefully on SIGINT only)', {
  timeout: 30_000,
}, async () => {
  // A runner that says which signal it got and then exits.
  const sayer = `
const { spawn } = require('node:child_process');
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { console.log('runner got ' + s); setTimeout(() => process.exit(0), 50); });
const w = spawn(process.execPath, ['-e', ${JSON.stringify(WORKER)}], { stdio: ['ignore', 'pipe', 'ignore'] });
w.stdout.once('data', () => console.log(JSON.stringify({ runner: process.pid, worker: w.pid })));
setInterval(() => {}, 1000);
`;
  const run = parent(`
    import { runForwardingSignals } from ${JSON.stringify(PROCESS_TS)};
    await runForwardingSignals(process.execPath, ['-e', ${JSON.stringify(sayer)}], { stdio: ['ignore', 'inherit', 'inherit'], graceMs: 5000, stopSignal: 'SIGINT' });
  `);
  const { runner } = await run.ids;
  run.p.kill('SIGTERM');
  const { code } = await run.exited;
  assert.equal(code, 143, 'the parent still exits as stopped by SIGTERM');
  assert.match(run.output(), /runner got SIGINT/);
  assert.doesNotMatch(run.output(), /runner got SIGTERM/);
  await sleep(100);
  assert.deepEqual(alive(runner), [], 'no process of the group is left');
});

test('a run whose CLI is killed outright (SIGKILL) ends its own process group: the parent watchdog', { timeout: 30_000 }, async () => {
  const WATCHDOG_TS = fileURLToPath(new URL('../scenarios/parent-watchdog.ts', import.meta.url));
  // The "CLI": starts a detached runner (its own group) that watches it and keeps a worker.
  const runnerCode = `
    import { spawn } from 'node:child_process';
    import { watchParent } from ${JSON.stringify(WATCHDOG_TS)};
    watchParent();
    const w = spawn(process.execPath, ['-e', ${JSON.stringify(WORKER)}], { stdio: ['ignore', 'pipe', 'ignore'] });
    w.stdout.once('data', () => console.log(JSON.stringify({ runner: process.pid, worker: w.pid })));
    setInterval(() => {}, 1000);
  `;
  const run = parent(`
    import { spawn } from 'node:child_process';
    const r = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(runnerCode)}], {
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
      env: { ...process.env, SVC_PARENT_PID: String(process.pid) },
    });
    setInterval(() => {}, 1000);
  `);
  const { runner } = await run.ids;
  assert.ok(alive(runner).length >= 2, 'runner and worker run in their own group');
  run.p.kill('SIGKILL');
  await run.exited;
  // The watchdog polls once a second: bounded by polls, not by the machine's speed.
  for (let i = 0; i < 40 && alive(runner).length; i++) await sleep(250);
  assert.deepEqual(alive(runner), [], 'the runner ended its group once its parent was gone');
});

test('a simulator started as a process (startSimulatorProcess) ends once the process that started it is gone, even killed outright', {
  timeout: 60_000,
}, async () => {
  const SIMULATOR_PROCESS_TS = fileURLToPath(new URL('./simulator-process.ts', import.meta.url));
  // The "mutation run": starts the simulator (its own group), prints its pid as the runner's, keeps running.
  const run = parent(`
    import { startSimulatorProcess, simulatorProcessEnv } from ${JSON.stringify(SIMULATOR_PROCESS_TS)};
    const sim = await startSimulatorProcess(simulatorProcessEnv());
    console.log(JSON.stringify({ runner: sim.pid, worker: sim.pid }));
    setInterval(() => {}, 1000);
  `);
  const { runner: sim } = await run.ids;
  assert.ok(alive(sim).length >= 1, 'the simulator serves in its own group');
  run.p.kill('SIGKILL');
  await run.exited;
  // It looks for its parent once a second: bounded by polls, not by the machine's speed.
  for (let i = 0; i < 80 && alive(sim).length; i++) await sleep(250);
  assert.deepEqual(alive(sim), [], 'the simulator stopped once its parent was gone');
});
