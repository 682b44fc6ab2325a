/**
 * The delivery log's receiver: a port already taken refuses its start with the listen error,
 * for the command to name the port (cli/invocation.ts systemErrorSentence), instead of an
 * 'error' event that nothing handles ending the process; and the log of a receiver that runs
 * for weeks stays bounded on disk (two generations of at most the bound each), its reader
 * reading both, oldest first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendBounded, readDeliveryLog, startDeliveryLog } from './delivery-log.ts';

test('past its bound the log starts a new generation; the one before is dropped; the reader reads both in order', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'delivery-log-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'deliveries.jsonl');
  const limit = 200;
  const line = (i: number) => `${JSON.stringify({ at: i, status: 204, sha256: 'x'.repeat(20) })}\n`;
  for (let i = 0; i < 100; i++) appendBounded(file, line(i), limit);
  assert.ok(statSync(file).size <= limit, `${statSync(file).size} bytes`);
  assert.ok(existsSync(`${file}.1`) && statSync(`${file}.1`).size <= limit);
  const read = readDeliveryLog(file).map((a) => a.at);
  assert.ok(read.length >= 2 && read.length < 100, `${read.length} attempts kept`);
  assert.deepEqual(
    read,
    Array.from({ length: read.length }, (_, i) => 100 - read.length + i),
    'the newest attempts, oldest first, none lost between the two',
  );
});

test('a port already taken rejects the start with EADDRINUSE', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'delivery-log-'));
  const busy = createServer();
  t.after(() => {
    busy.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = (busy.address() as { port: number }).port;
  await assert.rejects(startDeliveryLog({ file: join(dir, 'deliveries.jsonl'), port }), { code: 'EADDRINUSE', syscall: 'listen', port });
  // A free port still serves.
  const log = await startDeliveryLog({ file: join(dir, 'deliveries.jsonl') });
  await log.close();
});

test('only a POST to the receiver\u2019s path is an attempt; a body above 1 MiB is refused; neither is logged', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'delivery-log-'));
  const file = join(dir, 'deliveries.jsonl');
  const log = await startDeliveryLog({ file });
  t.after(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const base = log.url.replace(/\/hooks$/, '');
  const send = async (method: string, path: string, body?: Buffer | string) => {
    const res = await fetch(`${base}${path}`, {
      method,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : new Uint8Array(body) } : {}),
    }).catch((e: Error) => e);
    if (res instanceof Error) return 'refused';
    await res.arrayBuffer();
    return res.status;
  };
  assert.equal(await send('GET', '/hooks'), 405);
  assert.equal(await send('POST', '/etc/passwd', '{}'), 404);
  const big = await send('POST', '/hooks', Buffer.alloc(2 * 1024 * 1024, 0x61));
  assert.ok(big === 413 || big === 'refused', String(big));
  assert.equal(await send('POST', '/hooks', '{"member":{"guid":"MBR-1"}}'), 204);
  assert.equal(await send('POST', '/hooks/member', '{"member":{"guid":"MBR-2"}}'), 204);
  assert.deepEqual(
    readDeliveryLog(file).map((a) => a.type),
    ['member', 'member'],
    'the two deliveries, nothing else',
  );
});
