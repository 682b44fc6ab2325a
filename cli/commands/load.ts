/**
 * `svc-conformance load`: the k6 load scripts (load/run.ts), with k6 when on the PATH, else the
 * k6-compatible runner.
 */
import { type Command, Option } from 'commander';
import { join } from 'node:path';
import { outputPath, profileOf, reportsDir, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function runLoadCommand(scripts: string[], o: { profile: string; runner?: string; out?: string }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const { runLoad, LOAD_PROFILES, scriptPath, LoadInputError } = await import('../../load/run.ts');
  if (!LOAD_PROFILES.includes(o.profile)) throw new UsageError(`unknown --profile "${o.profile}"; profiles: ${LOAD_PROFILES.join(', ')}`);
  const resolvedScripts = scripts.map((s) => {
    const file = scriptPath(s);
    if (!file) throw new UsageError(`no load script "${s}"; scripts: rate-limit, paging (or a path to a k6 script)`);
    return file;
  });
  const out = outputPath(o.out ? '--out' : 'the reports folder', o.out ?? join(reportsDir(settings), 'load'), 'folder');
  return runLoad({ scripts: resolvedScripts, env: settings.env, profile: o.profile, runner: o.runner as 'k6' | 'runner' | undefined, reportDir: out }).catch(
    (e: unknown) => {
      if (e instanceof LoadInputError) throw new UsageError(e.message);
      throw e;
    },
  );
}

export function addLoadCommand(program: Command, wrap: Wrap): void {
  program
    .command('load')
    .description('run the k6 load scripts (429 behaviour, paging limits) with k6 when on the PATH, else the k6-compatible runner')
    .argument('[scripts...]', 'rate-limit, paging, or paths of k6 scripts (default: all)')
    .option('--profile <name>', 'load profile: smoke, average, stress, spike', 'smoke')
    .addOption(new Option('--runner <runner>', 'force k6 or the built-in runner').choices(['k6', 'runner']))
    .option('--out <dir>', 'where the JSON summaries go (default: <reports>/load)')
    .action(wrap((scripts: string[], o, cmd: Command) => runLoadCommand(scripts, o, cmd)));
}
