/**
 * `svc-conformance webhook-check`: the receiver-side properties of the Events section against
 * the team's webhook handler (integration/webhook-check.ts).
 */
import { type Command, InvalidArgumentError } from 'commander';
import { join, resolve } from 'node:path';
import { integrationInput, positiveInt, profileOf, reportsDir, settingsOf, wholeNumber, type Wrap } from '../invocation.ts';
import type { WebhookCheckOptions } from '../../integration/webhook-check.ts';

/** The command's options: the engine's own, the report folder optional (it defaults under the reports). */
type WebhookCheckCommandOptions = Omit<WebhookCheckOptions, 'out' | 'env' | 'onReachable' | 'captureWithinMs'> & { out?: string };

async function runWebhookCheckCommand(o: WebhookCheckCommandOptions, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'webhook-check');
  const { runWebhookCheck, WEBHOOK_PROPERTIES } = await import('../../integration/webhook-check.ts');
  // The properties are announced once the handler answered: when nothing does, the cause is the first line.
  const announce = () => {
    console.log(`svc-conformance webhook-check: ${o.url}${o.observeUrl ? ` (observation API ${o.observeUrl})` : ''}`);
    for (const p of WEBHOOK_PROPERTIES)
      console.log(`  ${p.needsObservation && !o.observeUrl ? '(skipped: needs --observe-url) ' : ''}${p.property} — ${p.rules}`);
  };
  const { code } = await integrationInput(() => runWebhookCheck({ ...o, out, env: settings.env, onReachable: announce }));
  // Without the observation API a duplicate's 2xx is checked, not that it was processed once:
  // a green line must not read as the stored state verified.
  const unverified = o.observeUrl
    ? ''
    : ' (without --observe-url the stored state was not verified: a duplicate processed once, a late one too, the highest version kept, the model-based sequence)';
  console.log(
    `\nwebhook-check: ${code === 0 ? `every property that ran holds${unverified}` : 'a property failed (its error, and a shrunk counterexample when there is one, above)'}; reports in ${out} (html/, junit.xml, summary.md)`,
  );
  return code;
}

export function addWebhookCheckCommand(program: Command, wrap: Wrap): void {
  program
    .command('webhook-check')
    .description(
      'the receiver-side properties of the Events section against your webhook handler: unknown fields, bad JSON, duplicates (retries with the same payload), late and out-of-order deliveries, answer time',
    )
    .requiredOption('--url <url>', 'your webhook URL ({type} in it is replaced by the webhook type)')
    .option(
      '--observe-url <url>',
      'the base URL of its observation API, if it has one (targets/receiver/README.md; /_observe/processed-count answers below it): then duplicates processed once and the highest version stored are checked too',
    )
    .option('--runs <n>', 'cases per property (default 200)', positiveInt('--runs'))
    .option('--bound-ms <ms>', 'answer bound ("answer quickly"; default 1000)', positiveInt('--bound-ms'))
    .option(
      '--late-retry-ms <ms>',
      "how long after the first delivery the late retry comes (default 30000: the example schedule's first retry; retries spread over about 24 hours)",
      wholeNumber('--late-retry-ms'),
    )
    .option('--late-retry-between <n>', 'other deliveries sent between a delivery and its late retry (default 500)', wholeNumber('--late-retry-between'))
    .option('--seed <n>', 'replay a run', (raw: string) => {
      const n = Number(raw);
      if (!Number.isInteger(n)) throw new InvalidArgumentError('--seed must be an integer.');
      return n;
    })
    .option('--out <dir>', 'report folder (default: <reports>/webhook-check)')
    .addHelpText(
      'after',
      '\nBefore the properties, one GET to --url (and --observe-url) bounded by SVC_REQUEST_TIMEOUT_MS: when nothing answers there, or --observe-url does not answer its counts, no property is run.\nExit codes: 0 every property holds, 1 one fails (with a shrunk counterexample), 2 bad usage, or nothing answers at --url or --observe-url (connection refused, DNS, timeout: named), or --observe-url is no observation API.',
    )
    .action(wrap((o, cmd: Command) => runWebhookCheckCommand(o, cmd)));
}
