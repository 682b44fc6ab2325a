/**
 * `svc-conformance check-har`: a HAR file of the team's traffic judged against the contract
 * (integration/traffic.ts).
 */
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { integrationInput, positiveInt, profileOf, reportsDir, settingsOf, type Wrap } from '../invocation.ts';

async function runCheckHarCommand(
  file: string,
  o: {
    baseUrl?: string;
    audienceBaseUrl?: string;
    testHostBaseUrl?: string;
    out?: string;
    usageOut?: string;
    strict?: boolean;
    maxHarMb?: number;
    allowEmpty?: boolean;
  },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'check-har');
  const { checkHar } = await import('../../integration/traffic.ts');
  const run = await integrationInput(async () =>
    checkHar({
      file: resolve(file),
      env: settings.env,
      baseUrl: o.baseUrl,
      audienceBaseUrl: o.audienceBaseUrl,
      testHostBaseUrl: o.testHostBaseUrl,
      out,
      strict: o.strict,
      ...(o.usageOut ? { usageOut: resolve(o.usageOut) } : {}),
      ...(o.maxHarMb ? { maxBytes: o.maxHarMb * 1024 * 1024 } : {}),
      allowEmpty: o.allowEmpty,
    }),
  );
  console.log([...run.lines, '', `Reports: ${run.written.files.join(', ')}${run.usage ? `; usage file ${resolve(o.usageOut!)}` : ''}`].join('\n'));
  return run.exitCode;
}

export function addCheckHarCommand(program: Command, wrap: Wrap): void {
  program
    .command('check-har')
    .description(
      "judge a HAR file of your integration's traffic (browser devtools, Playwright's recordHar, mitmproxy, the proxy's recording.har) against the contract: requests and responses, same tiers and reports",
    )
    .argument('<file>', 'the HAR file')
    .option(
      '--base-url <url>',
      'the platform API base URL in the HAR (default: target.baseUrl of a real target, else the origins whose requests carry Accept-Version)',
    )
    .option('--audience-base-url <url>', 'the audience service base URL in the HAR')
    .option('--test-host-base-url <url>', 'the test host base URL in the HAR')
    .option('--out <dir>', 'report folder (default: <reports>/check-har)')
    .option('--usage-out <file>', "also write the integration's usage file")
    .option('--strict', 'inferred findings fail the gate like stated ones (SVC_STRICT=1)')
    .option('--max-har-mb <mb>', 'bound on the HAR file read, MiB (default 256)', positiveInt('--max-har-mb'))
    .option(
      '--allow-empty',
      'pass a HAR that holds no API call to the platform base URL (default: it fails, naming what the HAR held: a gate that checked nothing is not green)',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 green, 1 a stated finding (inferred too with --strict) or no API call in the HAR (checked nothing; --allow-empty passes it), 2 bad usage or an unreadable HAR.',
    )
    .action(wrap((file: string, o, cmd: Command) => runCheckHarCommand(file, o, cmd)));
}
