/** Command: deliver again, byte for byte, a payload already answered 2xx (Events rules 4, 6: a retry). */
import assert from 'node:assert/strict';
import type fc from 'fast-check';
import { post } from '../client.ts';
import { MODEL_TYPE, type ReceiverModel, type ReceiverReal } from './model.ts';

export class DeliverDuplicateCommand implements fc.AsyncCommand<ReceiverModel, ReceiverReal> {
  private picked = '';
  constructor(readonly pick: number) {}
  check(m: Readonly<ReceiverModel>): boolean {
    return m.delivered.length > 0;
  }
  async run(m: ReceiverModel, r: ReceiverReal): Promise<void> {
    const p = m.delivered[this.pick % m.delivered.length];
    this.picked = `v${p.version} of ${p.guid.slice(-2)}`;
    const answer = await post(r.receiver.deliveryUrl(MODEL_TYPE), p.raw);
    assert.ok(answer.status >= 200 && answer.status <= 206, `${this}: a duplicate answered ${answer.status}, expected 200-206 (rule 6: still answer success)`);
  }
  toString(): string {
    return `redeliver duplicate #${this.pick}${this.picked ? ` (${this.picked})` : ''}`;
  }
}
