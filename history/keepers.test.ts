/**
 * The members a night leaves for the next (history/keepers.ts) against a target whose
 * aggregation never settles within SVC_AGGREGATION_TIMEOUT_MS: the keeper says so when it
 * is left, and the next night's verdict names that cause instead of "no aggregated_at".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor, loadProfile } from '../targets/index.ts';
import { runKeepers } from './keepers.ts';
import { observationsDir, readIndex } from './store.ts';

/** A target whose members aggregate for ever; it counts the users deleted. */
function neverSettles(): { server: Server; deleted: string[] } {
  const deleted: string[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && path === '/users') return send(201, { user: { guid: `USR-${++n}` } });
      if (req.method === 'GET' && path.endsWith('/credentials'))
        return send(200, {
          credentials: [
            { guid: 'CRD-1', field_name: 'username' },
            { guid: 'CRD-2', field_name: 'password' },
          ],
        });
      if (req.method === 'POST' && path.endsWith('/members')) return send(202, { member: { guid: `MBR-${path.split('/')[2]}` } });
      if (req.method === 'GET' && path.includes('/members/'))
        return send(200, { member: { guid: path.split('/')[4], is_being_aggregated: true, aggregated_at: null } });
      if (req.method === 'PUT') return send(200, { user: {} });
      if (req.method === 'DELETE') {
        deleted.push(path.split('/')[2]);
        return send(204);
      }
      send(404, { error: { status: 404, code: 'not_found', message: path } });
    });
  });
  return { server, deleted };
}

test('a member that does not settle within the bound is left saying so, and judged inconclusive naming the bound, then deleted', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keepers-'));
  const { server, deleted } = neverSettles();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { port } = server.address() as { port: number };
  const profile = loadProfile({
    SVC_BASE_URL: `http://127.0.0.1:${port}`,
    SVC_CLIENT_ID: 'client',
    SVC_API_KEY: 'key-of-the-test',
    SVC_ALLOW_DESTRUCTIVE: '1',
    SVC_TEST_PASSWORD_SUCCESS: 'pass-of-the-test',
    SVC_AGGREGATION_TIMEOUT_MS: '150',
    SVC_POLL_INTERVAL_MS: '50',
  });
  const run = (at: string) =>
    runKeepers({ profile, historyDir: dir, redactor: createRedactor(), deliveryLog: join(dir, 'deliveries.jsonl'), at: new Date(at) });

  const first = await run('2026-11-01T03:00:00Z');
  const index = readIndex(dir);
  first.updateIndex(index);
  const left = index.keepers.filter((k) => k.kind !== 'webhooks');
  assert.equal(left.length, 2, 'a refresh keeper and a disabled keeper are left');
  for (const k of left)
    assert.match(k.unsettled ?? '', /^not settled within 150 ms \(SVC_AGGREGATION_TIMEOUT_MS\): is_being_aggregated true, aggregated_at null, when left$/);

  mkdirSync(observationsDir(dir), { recursive: true });
  writeFileSync(join(observationsDir(dir), 'index.json'), JSON.stringify(index));
  const second = await run('2026-11-02T04:00:00Z');
  const judged = second.results.filter((r) => /refresh|disabled/i.test(r.rule) && r.verdict === 'inconclusive');
  assert.equal(judged.length, 2, JSON.stringify(second.results, null, 1));
  for (const r of judged) assert.match(r.detail, /no aggregated_at to compare \(not settled within 150 ms \(SVC_AGGREGATION_TIMEOUT_MS\)/);
  for (const k of left) assert.ok(deleted.includes(k.userGuid), `${k.userGuid} deleted after its verdict`);
});
