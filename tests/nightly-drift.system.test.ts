/**
 * "Done when" of the nightly with a memory, end to end: a separately started simulator
 * (targets/simulator-process.ts), a small proxy of this test's own in front of it that changes what
 * the target serves from one night to the next, and `svc-conformance run --history <dir>`
 * night after night (a small subset of scenarios each night: one scenario of the api project,
 * which reads an institution by code and by guid), then `svc-conformance drift --history`.
 *
 *   night 1  serves extra response fields (svc_probe.note, svc_extra)
 *   night 2  does not: each removed field is breaking within its version, with last night's value
 *   night 3  serves what night 2 did: no drift
 *   night 4  svc_probe.count a string instead of a number, svc_probe.kinds[] BETA instead of ALPHA:
 *            a changed type and a removed enum value (breaking), a new enum value (non-breaking)
 *   night 5  adds a field and a second enum value: non-breaking only, the run passes
 *
 * Breaking fails the run (exit 1) quoting Versioning ("Breaking (require a new version)");
 * non-breaking never does. Traffic stays on 127.0.0.1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, realTargetEnv, simulatorProcessEnv, startSimulatorProcess } from '../targets/index.ts';
import type { DriftAnswer } from '../history/on-demand.ts';
import { readIndex } from '../history/store.ts';
import { ROOT } from '../proof/real-target.ts';

/** A night that refuses reading an institution by its code (the proxy answers 400 itself). */
const REFUSE = '__refuse';
/** What the proxy adds to every 2xx JSON object body, night by night. */
const NIGHTS: Array<Record<string, unknown>> = [
  { svc_probe: { note: 'night one extra', kinds: ['ALPHA'], count: 3 }, svc_extra: 'only on night one' },
  { svc_probe: { kinds: ['ALPHA'], count: 3 } },
  { svc_probe: { kinds: ['ALPHA'], count: 3 } },
  { svc_probe: { kinds: ['BETA'], count: '3' } },
  { svc_probe: { kinds: ['BETA', 'GAMMA'], count: '3', added: 'new on night five' } },
  // Night 6: the same request refused (400) where it was accepted: a new required parameter, a
  // new validation rule or a moved path, as a client sees them.
  { svc_probe: { kinds: ['BETA', 'GAMMA'], count: '3', added: 'new on night five' }, [REFUSE]: true },
];
const SCENARIO = 'an institution reads the same by code and by guid';
/** Bodies the proxy reads at most (an institution list page is far smaller). */
const MAX_BODY = 16 * 1024 * 1024;

/** Forwards to `upstream`, adding `extra()` to every 2xx JSON object answer. */
async function startProxy(upstream: string, extra: () => Record<string, unknown>): Promise<{ url: string; close: () => Promise<void> }> {
  const up = new URL(upstream);
  const server: Server = createServer((req, res) => {
    if (extra()[REFUSE] && req.method === 'GET' && /^\/institutions\/[^/?]+(\?|$)/.test(req.url ?? '')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { error_code: 1000, error_message: 'institution_code: a new validation rule', error_type: 'invalid_request' } }));
      return;
    }
    const headers = { ...req.headers, host: up.host };
    // Plain bodies: the proxy edits JSON.
    delete headers['accept-encoding'];
    const out = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers, timeout: 30_000 }, (answer) => {
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        const status = answer.statusCode ?? 502;
        const h = { ...answer.headers };
        if (status >= 200 && status < 300 && /json/.test(String(h['content-type'] ?? ''))) {
          try {
            const json = JSON.parse(body.toString('utf8'));
            const { [REFUSE]: _refuse, ...added } = extra();
            if (json && typeof json === 'object' && !Array.isArray(json)) body = Buffer.from(JSON.stringify({ ...json, ...added }));
          } catch {
            /* not JSON after all: as it came */
          }
        }
        delete h['transfer-encoding'];
        h['content-length'] = String(body.length);
        res.writeHead(status, h);
        res.end(body);
      });
    });
    out.on('timeout', () => out.destroy(new Error('upstream timeout')));
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(e.message));
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const cli = (args: string[], env: NodeJS.ProcessEnv) =>
  runProcess(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...args], { cwd: ROOT, env, timeoutMs: 180_000, stderrTailBytes: 4000 });

test('drift inside a version through a proxy: removed fields, a changed type and a removed enum value are breaking; additions are not; the same night twice is no drift', {
  timeout: 900_000,
}, async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-nightly-drift-'));
  const history = join(work, 'history');
  const sim = await startSimulatorProcess(simulatorProcessEnv());
  let night = 0;
  const proxy = await startProxy(sim.base, () => NIGHTS[night]);
  try {
    const env = { ...realTargetEnv(proxy.url), SVC_REPORTS_OUT: join(work, 'reports'), SVC_WORKERS: '1' };
    const drift = async (): Promise<DriftAnswer> => {
      const r = await cli(['drift', '--history', history, '--json'], env);
      const [answer] = JSON.parse(r.stdout) as DriftAnswer[];
      return answer;
    };
    const nights: Array<{ code: number | null; stdout: string; answer: DriftAnswer }> = [];
    for (night = 0; night < NIGHTS.length; night++) {
      const r = await cli(['run', '--history', history, '--project', 'api', '--grep', SCENARIO, '--reporter', 'line'], env);
      assert.equal(r.timedOut, false, `night ${night + 1} finished in time`);
      assert.match(r.stdout, /history: night \S+ of http:\/\/127\.0\.0\.1:\d+ recorded/, `night ${night + 1} recorded:\n${r.stdout}\n${r.stderr}`);
      nights.push({ code: r.code, stdout: r.stdout, answer: await drift() });
    }
    const summary = (a: DriftAnswer) => [...new Set(a.events.map((e) => `${e.cls} ${e.kind} ${e.path}`))].sort();
    const index = readIndex(history);
    const ids = index.nights.map((n) => n.id);
    assert.equal(ids.length, 6);

    // Night 1: nothing to compare with; green.
    assert.equal(nights[0].code, 0, nights[0].stdout);
    assert.equal(nights[0].answer.comparedWith, 0);
    assert.deepEqual(nights[0].answer.events, []);

    // Night 2: each removed field breaking, with last night's value; the run fails, quoting Versioning.
    assert.deepEqual(summary(nights[1].answer), ['breaking removed-field svc_extra', 'breaking removed-field svc_probe.note']);
    const note = nights[1].answer.events.find((e) => e.path === 'svc_probe.note')!;
    assert.match(note.last.value, /"night one extra"/);
    assert.equal(note.last.night, ids[0]);
    assert.equal(note.firstSeen, ids[0]);
    assert.match(note.operation, /^GET \/institutions\//);
    assert.match(note.version, /^v\d{8}$/, 'the version in force (Accept-Version) names the comparison');
    assert.equal(nights[1].code, 1, 'a breaking change inside a version fails the run');
    assert.match(
      nights[1].stdout,
      /BREAKING breaking change inside v\d{8} .* at svc_probe\.note: last night \(\S+\) "night one extra".*Versioning: "Breaking \(require a new version\)/,
    );

    // Night 3 = night 2: no drift, green.
    assert.deepEqual(nights[2].answer.events, []);
    assert.equal(nights[2].code, 0, nights[2].stdout);

    // Night 4: changed type and removed enum value breaking; the new value non-breaking.
    assert.deepEqual(summary(nights[3].answer), [
      'breaking changed-type svc_probe.count',
      'breaking removed-enum-value svc_probe.kinds[]',
      'non-breaking added-enum-value svc_probe.kinds[]',
    ]);
    assert.equal(nights[3].answer.events.find((e) => e.kind === 'removed-enum-value')!.last.value, '"ALPHA"');
    assert.equal(nights[3].code, 1);

    // Night 5: an added field and a new enum value: reported, never failing.
    assert.deepEqual(summary(nights[4].answer), ['non-breaking added-enum-value svc_probe.kinds[]', 'non-breaking added-field svc_probe.added']);
    assert.equal(nights[4].code, 0, nights[4].stdout);

    // Night 6: the request the scenario sent last night, accepted then, refused now: breaking.
    const refused = nights[5].answer.events.filter((e) => e.kind === 'refused-now');
    assert.ok(refused.length >= 1, JSON.stringify(nights[5].answer.events));
    assert.ok(
      refused.every((e) => e.cls === 'breaking' && /^GET \/institutions\/\{/.test(e.operation) && e.tonight === '400'),
      JSON.stringify(refused),
    );
    assert.match(refused[0].rule, /adding a required request parameter .* adding a validation rule .* removing, moving or changing endpoint paths/);
    assert.equal(nights[5].code, 1);

    // What recording and comparing cost each run: reported, and under 10 % of it.
    for (const n of index.nights) {
      const { readNight } = await import('../history/store.ts');
      const c = readNight(history, n.id).cost!;
      const spent = c.servedMs + c.recordMs + c.compareMs;
      assert.ok(c.wallTimeMs && spent < 0.1 * c.wallTimeMs, `night ${n.id}: ${spent} ms of ${c.wallTimeMs} ms`);
    }
    assert.match(nights[4].stdout, /recording and comparing: \d+ ms .* % of the night's/);
  } finally {
    await proxy.close();
    await sim.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
