/**
 * `svc-conformance reference`: the vendor's published OpenAPI documents as a second witness
 * (contracts/, examineReference), the report written by reports/reference.ts.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkOptionsOf } from '../../targets/index.ts';
import { ConfigError } from '../config/load.ts';
import { outputPath, profileOf, settingsOf, UsageError, type Wrap } from '../invocation.ts';

/** `--version-of file=v<YYYYMMDD>`, repeatable: the version a reference document describes when it does not say. */
function versionOfOption(raw: string, acc: string[]): string[] {
  if (!/^.+=v\d{8}$/.test(raw)) throw new InvalidArgumentError(`--version-of takes <file>=v<YYYYMMDD>, e.g. vendor.yml=v20250224; got "${raw}"`);
  return [...acc, raw];
}

async function runReferenceCommand(files: string[], o: { versionOf: string[]; json?: string; markdown?: string }, cmd: Command): Promise<number> {
  const json = o.json ? outputPath('--json', o.json, 'file') : undefined;
  const markdown = o.markdown ? outputPath('--markdown', o.markdown, 'file') : undefined;
  const settings = await settingsOf(cmd);
  // The options a run with these settings uses, the reference itself left out: it is what is judged.
  const profile = profileOf(settings.env);
  const versionOf = new Map<string, string>();
  for (const entry of o.versionOf) {
    const at = entry.lastIndexOf('=');
    const file = resolve(entry.slice(0, at));
    if (!files.some((f) => resolve(f) === file)) throw new UsageError(`--version-of ${entry}: ${entry.slice(0, at)} is not one of the documents given`);
    versionOf.set(file, entry.slice(at + 1));
  }
  const [{ examineReference, ReferenceInputError }, { referenceConsoleLines, referenceJson, referenceMarkdown }] = await Promise.all([
    import('../../contracts/index.ts'),
    import('../../reports/reference.ts'),
  ]);
  let report: ReturnType<typeof examineReference>;
  try {
    report = examineReference(
      files.map((f) => ({ file: f, ...(versionOf.has(resolve(f)) ? { version: versionOf.get(resolve(f)) } : {}) })),
      checkOptionsOf({ ...profile, reference: [] }),
    );
  } catch (e) {
    if (e instanceof ReferenceInputError) throw new ConfigError(e.message);
    throw e;
  }
  const written: string[] = [];
  for (const [file, text] of [
    [json, () => referenceJson(report)],
    [markdown, () => referenceMarkdown(report)],
  ] as const) {
    if (!file) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text());
    written.push(file);
  }
  for (const line of referenceConsoleLines(report, written)) console.log(line);
  return 0;
}

export function addReferenceCommand(program: Command, wrap: Wrap): void {
  program
    .command('reference')
    .description(
      "the vendor's published OpenAPI documents as a second witness: every example they carry for a 2xx JSON response of an operation the contract documents, judged as a live run judges an answer, and the two descriptions compared schema by schema (a field we require that the reference does not carry, a status it declares that we refuse, a type that differs); every disagreement quoted from both sides",
    )
    .argument('<file...>', "the vendor's OpenAPI 3.0/3.1 documents (YAML or JSON), one per version")
    .option(
      '--version-of <file=version>',
      'the version a document describes, over what its info.version or Accept-Version parameter says (repeatable), e.g. vendor.yml=v20250224',
      versionOfOption,
      [] as string[],
    )
    .option('--json <file>', 'write the full report as JSON (every disagreement, both sides quoted)')
    .option('--markdown <file>', 'write the full report as Markdown')
    .addHelpText(
      'after',
      '\nWith the config key reference (SVC_REFERENCE) naming the same documents, every run reports a stated failure they contradict (an example failing the same rule at the same place, a required field they do not carry, a status they declare that the contract refuses) as inferred, naming the document and the pointer.\nExit codes: 0 it ran (disagreements are information, not a verdict), 2 bad input (a missing or unreadable file, not OpenAPI 3.0/3.1, a version the contract has no document for).',
    )
    .action(wrap((files: string[], o, cmd: Command) => runReferenceCommand(files, o, cmd)));
}
