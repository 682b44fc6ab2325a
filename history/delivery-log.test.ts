/**
 * The delivery log's receiver on a port already taken: its start is refused with the
 * listen error, for the command to name the port (cli/invocation.ts systemErrorSentence),
 * instead of an 'error' event that nothing handles ending the process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDeliveryLog } from './delivery-log.ts';

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
