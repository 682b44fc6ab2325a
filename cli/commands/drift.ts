/**
 * `svc-conformance drift`: drift inside a version on demand, the latest night of each target in
 * a history against the nights before it (history/on-demand.ts).
 */
import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../config/load.ts';
import type { Wrap } from '../invocation.ts';

async function runDriftCommand(o: { history: string; target?: string; night?: string; json?: boolean; markdown?: string }): Promise<number> {
  const { driftOnDemand, driftConsoleLines, driftAnswersMarkdown } = await import('../../history/on-demand.ts');
  const { HistoryError } = await import('../../history/store.ts');
  let answers: ReturnType<typeof driftOnDemand>;
  try {
    answers = driftOnDemand({ historyDir: resolve(o.history), target: o.target, night: o.night });
  } catch (e) {
    if (e instanceof HistoryError) throw new ConfigError(e.message);
    throw e;
  }
  if (o.markdown) {
    mkdirSync(dirname(resolve(o.markdown)), { recursive: true });
    writeFileSync(resolve(o.markdown), driftAnswersMarkdown(answers));
  }
  console.log(o.json ? JSON.stringify(answers, null, 2) : driftConsoleLines(answers).join('\n'));
  return answers.some((a) => a.events.some((e) => e.cls === 'breaking')) ? 1 : 0;
}

export function addDriftCommand(program: Command, wrap: Wrap): void {
  program
    .command('drift')
    .description(
      "drift inside a version, on demand: the latest night of each target in a history (nightly, run --history) against the nights before it, every difference classified by the specification's Versioning rules (breaking: a removed field, a changed kind of data, a removed enum value, a request refused that was accepted; non-breaking: an added field, enum value or header)",
    )
    .requiredOption('--history <dir>', "the history folder (the nightly's --history, or run --history)")
    .option('--target <name>', 'only this target (as the history names it: a base URL, or "embedded simulator")')
    .option('--night <id>', 'compare this night instead of the latest (an id the history keeps in full)')
    .option('--json', 'print the answer as JSON')
    .option('--markdown <file>', 'also write the answer as Markdown')
    .addHelpText(
      'after',
      '\nExit codes: 0 no breaking drift, 1 a breaking change inside a version (Versioning: "Breaking (require a new version)"), 2 bad input (no history there, an unreadable index, an unknown night or target).',
    )
    .action(wrap((o) => runDriftCommand(o)));
}
