/** Command: deliver a body that is not valid JSON (Events rule 6: the one case for a 4xx). */
import assert from 'node:assert/strict';
import type fc from 'fast-check';
import { post } from '../client.ts';
import { MODEL_TYPE, type ReceiverModel, type ReceiverReal } from './model.ts';

export class DeliverMalformedCommand implements fc.AsyncCommand<ReceiverModel, ReceiverReal> {
  constructor(readonly body: string) {}
  check(): boolean {
    return true;
  }
  async run(_m: ReceiverModel, r: ReceiverReal): Promise<void> {
    const answer = await post(r.receiver.deliveryUrl(MODEL_TYPE), this.body);
    assert.ok(answer.status >= 400 && answer.status <= 499, `${this}: answered ${answer.status}, expected 4xx`);
  }
  toString(): string {
    return `deliver malformed ${JSON.stringify(this.body.slice(0, 30))}`;
  }
}
