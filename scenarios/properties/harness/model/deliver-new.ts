/** Command: deliver a new update of one of the run's objects (Events rule 3: versioned). */
import assert from 'node:assert/strict';
import type fc from 'fast-check';
import { post } from '../client.ts';
import { guidOf, MODEL_TYPE, recordAccepted, type ReceiverModel, type ReceiverReal } from './model.ts';

export class DeliverNewCommand implements fc.AsyncCommand<ReceiverModel, ReceiverReal> {
  constructor(
    readonly objectIndex: number,
    readonly version: number,
    readonly fields: Record<string, unknown>,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReceiverModel, r: ReceiverReal): Promise<void> {
    const guid = guidOf(r.ns, this.objectIndex);
    const raw = JSON.stringify({ ...this.fields, guid, version: this.version });
    const answer = await post(r.receiver.deliveryUrl(MODEL_TYPE), raw);
    assert.ok(answer.status >= 200 && answer.status <= 206, `${this}: answered ${answer.status}, expected 200-206`);
    recordAccepted(m, { guid, version: this.version, raw });
  }
  toString(): string {
    return `deliver object#${this.objectIndex} v${this.version} (${Object.keys(this.fields).length} other fields)`;
  }
}
