/**
 * `svc-conformance usage`: the integration's usage file, from recorded traffic or declared
 * operations (integration/usage.ts, integration/traffic.ts).
 */
import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { integrationInput, positiveInt, profileOf, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function runUsageCommand(o: { fromHar?: string; declare: string[]; out: string; baseUrl?: string; maxHarMb?: number }, cmd: Command): Promise<number> {
  if (!!o.fromHar === o.declare.length > 0)
    throw new UsageError('give either --from-har <file.har> (recorded traffic, e.g. the proxy\'s recording.har) or --declare "<METHOD /path>" (repeatable)');
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const file = resolve(o.out);
  const usage = await integrationInput(async () => {
    if (o.declare.length) {
      const { declaredUsage } = await import('../../integration/usage.ts');
      const declared = declaredUsage(o.declare);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(declared, null, 2)}\n`);
      return declared;
    }
    const [{ readHar, IntegrationInputError }, { harBases, writeUsage }] = await Promise.all([
      import('../../integration/har.ts'),
      import('../../integration/traffic.ts'),
    ]);
    const har = readHar(resolve(o.fromHar!), o.maxHarMb ? { maxBytes: o.maxHarMb * 1024 * 1024 } : {});
    // A usage file of no operation would tell `versions --usage` that no difference touches the integration.
    if (!har.exchanges.length)
      throw new IntegrationInputError(
        `the HAR holds no request (${resolve(o.fromHar!)}): record the integration's traffic into it first (svc-conformance proxy, or --declare the operations)`,
      );
    return writeUsage(har.exchanges, { bases: harBases(har.exchanges, profile, { baseUrl: o.baseUrl }), source: `HAR file ${o.fromHar}`, file });
  });
  const ops = Object.entries(usage.operations);
  console.log(`wrote ${file}: ${ops.length} operation(s)${usage.versions.length ? ` under ${usage.versions.join(', ')}` : ''}`);
  for (const [key, u] of ops)
    console.log(
      `  ${key}${u.declared ? ' (declared: every field)' : `: ${u.query.length} query parameter(s), ${u.requestFields.length} request field(s), ${(u.reads ?? u.responseFields).length} response field(s)${u.reads ? ' (declared reads)' : ''}`}`,
    );
  console.log(
    `Commit it; narrow what your code reads with "reads" per operation (kept when the file is written again). Then: svc-conformance versions --from <version> --to <version> --usage ${o.out}`,
  );
  return 0;
}

export function addUsageCommand(program: Command, wrap: Wrap): void {
  program
    .command('usage')
    .description('write the usage file of your integration: the operations, parameters and fields its traffic touches (commit it; versions --usage reads it)')
    .option('--from-har <file>', "recorded traffic (a HAR, e.g. the proxy's recording.har)")
    .option(
      '--declare <operation>',
      'a declared operation, "METHOD /path/{template}" (repeatable): every field of it counts as used',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('--base-url <url>', 'the platform API base URL in the HAR (as check-har)')
    .option('--max-har-mb <mb>', 'bound on the HAR file read, MiB (default 256; as check-har)', positiveInt('--max-har-mb'))
    .option('--out <file>', 'the usage file', 'usage.json')
    .action(wrap((o, cmd: Command) => runUsageCommand(o, cmd)));
}
