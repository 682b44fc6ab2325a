/** Command: compare the stored state with the model (observation API). */
import type fc from 'fast-check';
import { assertMatchesModel, type ReceiverModel, type ReceiverReal } from './model.ts';

export class ObserveCommand implements fc.AsyncCommand<ReceiverModel, ReceiverReal> {
  check(): boolean {
    return true;
  }
  async run(m: ReceiverModel, r: ReceiverReal): Promise<void> {
    await assertMatchesModel(m, r, `${this}`);
  }
  toString(): string {
    return 'observe stored state';
  }
}
