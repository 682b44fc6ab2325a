/** Command: kill the receiver (kill -9 semantics) and start it again on the same database. */
import type fc from 'fast-check';
import { assertMatchesModel, type ReceiverModel, type ReceiverReal } from './model.ts';

export class CrashRestartCommand implements fc.AsyncCommand<ReceiverModel, ReceiverReal> {
  check(): boolean {
    return true;
  }
  async run(m: ReceiverModel, r: ReceiverReal): Promise<void> {
    if (!r.receiver.crashAndRestart) return; // a user's receiver cannot be killed from here
    await r.receiver.crashAndRestart();
    await assertMatchesModel(m, r, `${this}`);
  }
  toString(): string {
    return 'kill -9 and restart';
  }
}
