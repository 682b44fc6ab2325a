/**
 * `svc-conformance cleanup`: what interrupted runs left on a real target deleted, the users
 * carrying the suite's prefix only (scenarios/cleanup.ts).
 */
import type { Command } from 'commander';
import { profileOf, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function runCleanupCommand(o: { runId?: string; dryRun?: boolean; includeRecent?: boolean }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  if (profile.isSimulator)
    throw new UsageError('cleanup removes leftovers from a real target: set target.baseUrl (SVC_BASE_URL); the embedded simulator keeps nothing between runs');
  const { cleanupLeftovers } = await import('../../scenarios/cleanup.ts');
  const r = await cleanupLeftovers(profile, { runId: o.runId, dryRun: o.dryRun, includeRecent: o.includeRecent, log: (line) => console.log(line) });
  const kept = r.kept.length ? `; ${r.kept.length} kept: their runs may still be running (--include-recent deletes them)` : '';
  console.log(
    `${r.dryRun ? 'dry run: ' : ''}${r.listed} users listed (${r.pagesRead} pages${r.complete ? '' : ', stopped at the page bound: run again'}); ${r.found.length} with the prefix ${r.prefix}${kept}; ${r.dryRun ? 'none deleted' : `${r.deleted.length} deleted, ${r.failed.length} failed`}`,
  );
  return r.failed.length || !r.complete ? 1 : 0;
}

export function addCleanupCommand(program: Command, wrap: Wrap): void {
  program
    .command('cleanup')
    .description(
      "delete what interrupted runs left on the target: users whose id starts with the suite's prefix svcct- (every user the suite creates carries it); never any other user",
    )
    .option('--run-id <id>', 'only the users of this run (svcct-<run id>-...)')
    .option('--dry-run', 'list them, delete nothing')
    .option(
      '--include-recent',
      'also the users of runs that started within the run bound (SVC_RUN_TIMEOUT_MS) and may still be running; by default they are kept, so another job running against the same target keeps its users',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 done, 1 a deletion failed or the listing stopped at its page bound, 2 bad usage or configuration. ACH returns have no delete operation in the specification and stay.',
    )
    .action(wrap((o, cmd: Command) => runCleanupCommand(o, cmd)));
}
