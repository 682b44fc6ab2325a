/**
 * Command: deliver a body that is not valid JSON. Events rule 6 allows a 4xx for it
 * ("a 4xx only for truly invalid payloads such as bad JSON") without demanding one: a
 * 2xx (rule 4) that drops it is allowed too, a 5xx is not (properties.ts,
 * malformedBodyGets2xxOr4xx). Either way nothing is stored (the model is unchanged).
 */
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
    const ok = (answer.status >= 200 && answer.status <= 206) || (answer.status >= 400 && answer.status <= 499);
    assert.ok(ok, `${this}: answered ${answer.status}, expected a 2xx (rule 4) or a 4xx (rule 6)`);
  }
  toString(): string {
    return `deliver malformed ${JSON.stringify(this.body.slice(0, 30))}`;
  }
}
