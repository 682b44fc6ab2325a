/**
 * The fuzz engine reads a target's answers as every other reader does (the bounded
 * transport, then contract.checkReceived): against a hostile stand-in target on 127.0.0.1
 * a body nested 100 000 levels deep is one finding, never a crashed check; a gzip body
 * is inflated within the body limit; bytes that are not UTF-8 and repeated names are
 * findings.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { JSON_TEXT_CHECK, loadContract } from '../../../contracts/index.ts';
import { createRedactor, loadProfile } from '../../../targets/index.ts';
import { judge, Pacer, send, type FuzzTarget } from './engine.ts';
import type { FuzzCase, OperationSpec } from './requests.ts';

let answer: { headers: Record<string, string>; body: string | Buffer } = { headers: {}, body: '' };
let server: Server;
let target: FuzzTarget;

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const profile = loadProfile({
    ...process.env,
    SVC_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    SVC_CLIENT_ID: 'c',
    SVC_API_KEY: 'k',
  });
  target = { profile, contract: loadContract(), redactor: createRedactor([]), known: () => ({}), credentials: {}, ctx: {} as FuzzTarget['ctx'] };
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const spec = { security: [] } as unknown as OperationSpec;
const list: FuzzCase = {
  api: 'platform',
  version: 'v20260929',
  method: 'GET',
  path: '/institutions',
  query: [],
  headers: {},
  auth: 'default',
  generated: { kind: 'valid', tier: 'stated', rule: 'test', what: 'a list read' },
  operation: 'GET /institutions',
};
const exchange = async () => judge(list, await send(list, spec, target), target);
const page = (records: string) => `{"institutions":[${records}],"pagination":{"current_page":1,"per_page":25,"total_entries":1,"total_pages":1}}`;

test('a body nested 100 000 levels deep: one response_json_text finding, no crashed check, no body', async () => {
  answer = { headers: {}, body: `{"institutions":${'['.repeat(100_000)}${']'.repeat(100_000)}}` };
  const judged = await exchange();
  assert.equal(judged.body, undefined);
  assert.deepEqual(
    judged.failures.map((f) => `${f.check} ${f.tier}: ${f.message}`),
    [
      'response_json_text stated: Received: a JSON body nested deeper than 128 levels (100001 levels; level 129 opens at byte 143) / Expected: at most 128 levels, the nesting this judge reads (the body was not parsed: no check read it)',
    ],
  );
});

test('a gzip body with bytes that are not UTF-8 and a repeated name: inflated, then both findings', async () => {
  const text = page('{"code":"bank","name":"B\u00e9nk","code":"bank2"}');
  const at = Buffer.byteLength(text.slice(0, text.indexOf('\u00e9')));
  // Latin-1 instead of UTF-8 for the é.
  answer = { headers: { 'content-encoding': 'gzip' }, body: gzipSync(Buffer.from(text, 'latin1')) };
  const judged = await exchange();
  assert.deepEqual(
    judged.failures.filter((f) => f.check === JSON_TEXT_CHECK).map((f) => `${f.tier} ${f.location}: ${f.message}`),
    [
      `stated response.body: Received: 1 byte that is not UTF-8, the first at byte ${at}: de":"bank","name":"B\\xE9nk","code":"bank2"} / Expected: JSON text encoded in UTF-8`,
      'inferred response.body.institutions[0].code: Received: the name "code" more than once in one object (the checks read its last value, as JSON.parse keeps it) / Expected: unique names within an object',
    ],
  );
  assert.equal((judged.body as { institutions: Array<{ code: string }> }).institutions[0]!.code, 'bank2');
});

test('the pacer lets requests through below 10 a second too (a bucket of rate / 10 never held one)', async () => {
  const pacer = new Pacer(5);
  const guard = new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 5_000).unref());
  const took = (async () => {
    await pacer.take();
    await pacer.take();
    return 'took';
  })();
  assert.equal(await Promise.race([took, guard]), 'took');
});
