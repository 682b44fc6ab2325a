/**
 * The response-mutant generator: every mutant derives from a statement
 * of the specification as the project encodes it, never from what the simulator does:
 *
 *   - the OpenAPI documents per version (spec/versions/, audience, test host): which
 *     component schemas each answer carries and where (contracts/records.ts), their
 *     `required` lists, stated types (a `type` outside any `x-svc-inferred` schema), stated
 *     sets (`enum`), `const`s, formats, stated success statuses, list keys and the stated
 *     page maximum;
 *   - the trace table (spec/trace.yaml): a row whose encoding points at a field, a field
 *     list, a parameter or a request body field states it; the row's quoted statement and
 *     section travel with the mutant;
 *   - the rule tables of contracts/stated-*.ts (STATED_PLATFORM_RULES, PARTNER_RULES): the
 *     fields and limits they state beyond the schemas.
 *
 * Only what a sentence states is mutated. Where a change looks like a mutant but the
 * specification permits it, the generator leaves it out and says why (`EXCLUSIONS`,
 * returned with the mutants and printed in the report). The mutants the suite must tolerate
 * come from the Versioning section's non-breaking list and the notes on what a real
 * service does where the specification is silent.
 *
 * One file per kind of mutant under families/ (a function per family); the documents and
 * the trace are read once (documents.ts, generation.ts), the sentences and exclusions are in
 * statements.ts.
 */
import { loadContract, type Contract } from '../../contracts/index.ts';
import { loadTrace, type TraceRow } from '../../spec/trace.ts';
import { seededRandom } from '../../targets/index.ts';
import { headerMutants, limitMutants, otherSuccessMutants, refusalServedMutants, statusMutants } from './families/answers.ts';
import { disagreeMutants } from './families/disagree.ts';
import { dropFieldMutants, namedOnlyMutants } from './families/presence.ts';
import { requestRefusedMutants } from './families/requests.ts';
import { toleratedEverywhereMutants } from './families/tolerated.ts';
import { dateFormatMutants, idPrefixMutants, newEnumValueMutants, recaseMutants, replaceValueMutants, retypeMutants } from './families/values.ts';
import { startGeneration } from './generation.ts';
import { type Exclusion, type Family, type Mutant, STATED_FAMILIES, TOLERATED_FAMILIES } from './model.ts';
import { EXCLUSIONS } from './statements.ts';

export interface GeneratedMutants {
  mutants: Mutant[];
  exclusions: Exclusion[];
}

/**
 * Every mutant, family by family (families/), merged per subject across versions and sorted
 * by id. The tolerated mutants that apply everywhere come last: omit-null keeps the fields
 * whose presence the drop-field mutants state.
 */
export function generateMutants(o: { contract?: Contract; rows?: TraceRow[] } = {}): GeneratedMutants {
  const g = startGeneration(o.contract ?? loadContract(), o.rows ?? loadTrace());
  for (const family of [
    dropFieldMutants,
    namedOnlyMutants,
    retypeMutants,
    newEnumValueMutants,
    dateFormatMutants,
    recaseMutants,
    replaceValueMutants,
    idPrefixMutants,
    statusMutants,
    otherSuccessMutants,
    refusalServedMutants,
    headerMutants,
    limitMutants,
    requestRefusedMutants,
    disagreeMutants,
    toleratedEverywhereMutants,
  ])
    family(g);
  for (const m of g.b.mutants.values()) if (!m.ops.length && m.change.kind === 'field') m.ops = [...new Set(m.change.sites.map((s) => s.op))];
  return { mutants: g.b.done(g.docs.versions).sort((a, b) => a.id.localeCompare(b.id)), exclusions: EXCLUSIONS };
}

/** `n` mutants drawn family by family in turn (each family and each round's order shuffled by the seed), so every family is in a sample of at least their count. */
export function sampleMutants(mutants: readonly Mutant[], n: number, seed = 1): Mutant[] {
  const rand = seededRandom(seed);
  const families = [...STATED_FAMILIES, ...TOLERATED_FAMILIES]
    .map((f) => {
      const list = mutants.filter((m) => m.family === f);
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [list[i], list[j]] = [list[j], list[i]];
      }
      return list;
    })
    .filter((l) => l.length);
  const out: Mutant[] = [];
  for (let round = 0; out.length < n && families.some((l) => l.length > round); round++) {
    // The families' order in a round is drawn too, so a sample smaller than a round is not always the first families.
    const order = families
      .map((l, i) => ({ l, k: rand(), i }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.l);
    for (const l of order) if (l[round] && out.length < n) out.push(l[round]);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** Mutants by family, in the order of model.ts. */
function byFamily(mutants: readonly Mutant[]): Map<Family, Mutant[]> {
  const out = new Map<Family, Mutant[]>();
  for (const m of mutants) {
    let list = out.get(m.family);
    if (!list) out.set(m.family, (list = []));
    list.push(m);
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*proof\//, 'proof/'))) {
  const { mutants, exclusions } = generateMutants();
  for (const [family, list] of byFamily(mutants)) console.log(`${family}: ${list.length}`);
  console.log(
    `total ${mutants.length} (${mutants.filter((m) => m.expect === 'killed').length} stated, ${mutants.filter((m) => m.expect === 'tolerated').length} tolerated); ${exclusions.length} exclusions`,
  );
  if (process.argv.includes('--list'))
    for (const m of mutants) console.log(`${m.expect === 'killed' ? 'K' : 'T'} ${m.id}${m.versions ? ` [${m.versions.join(',')}]` : ''} ops=${m.ops.length}`);
}
