/**
 * ajv for JSON Schema 2020-12 (the dialect of OpenAPI 3.1), one instance per document,
 * and the mapping of ajv errors onto the one Failure shape (contracts/failure.ts).
 *
 * A schema is compiled as `{ $ref: "<file-uri>#<pointer>" }` against the whole document
 * added to ajv, so ajv resolves every schema `$ref` (also recursive ones) itself. A
 * contract keeps one `Validators`: each schema is compiled once, when first needed (the
 * first worker start is on the self-test's critical path, so nothing is compiled eagerly).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { locationOf, normaliseLocation, severityOfTier, type Failure, type Tier } from './failure.ts';
import { getByPointer, locateNode, pointerFragment, readYamlUri } from './load.ts';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** The extensions of spec/CONVENTIONS.md and OpenAPI's own schema keywords: annotations. */
const ANNOTATION_KEYWORDS = [
  'x-svc-versions',
  'x-svc-required-from',
  'x-svc-deprecated-from',
  'x-svc-sunset-from',
  'x-svc-sunset',
  'x-svc-opaque',
  'x-svc-max-records-per-page',
  'x-svc-list-key',
  'x-svc-not-shown',
  'x-svc-trace',
  'x-svc-inferred',
  'x-svc-unstated-success',
  'x-svc-paging-inferred-below',
  'discriminator',
  'xml',
  'externalDocs',
  'example',
];

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // `parentSchema` on errors tells whether the failing schema is `x-svc-opaque`.
    verbose: true,
    // OpenAPI documents carry keywords ajv does not know (x-*, and whole documents are
    // added as "schemas" so refs resolve): unknown keywords are annotations, not errors.
    strict: false,
    validateSchema: false,
    validateFormats: true,
    // Compiling is most of a worker's time in contract checks (npm run bench:suite measures
    // it); ajv's code optimisation passes are a large share of compiling and change no
    // verdict, only the generated code.
    code: { optimize: false },
  });
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });
  return ajv;
}

/** Adds `uri` (and, on demand, any file it references) to `ajv`, then compiles `uri#pointer`. */
export function compileAt(ajv: Ajv2020, uri: string, pointer: string): ValidateFunction {
  if (!ajv.getSchema(uri)) ajv.addSchema(readYamlUri(uri) as object, uri);
  for (let attempt = 0; attempt < 16; attempt++) {
    try {
      return ajv.compile({ $ref: `${uri}#${pointerFragment(pointer)}` });
    } catch (e: any) {
      // A reference into another YAML file of spec/: load it and try again.
      const missing: string | undefined = e?.missingSchema;
      if (!missing || ajv.getSchema(missing) || !missing.startsWith('file:')) throw e;
      ajv.addSchema(readYamlUri(missing) as object, missing);
    }
  }
  throw new Error(`too many referenced files while compiling ${uri}#${pointer}`);
}

/** Where a documented schema lives (a response media type, a webhook body); no uri: no schema. */
export interface SchemaAt {
  schemaUri?: string;
  schemaPointer?: string;
}

/** Keys that leave a `$ref` schema validating exactly as its target (annotations only). */
const PLAIN_REF_KEYS = new Set(['$ref', 'description', 'summary', 'title']);

/**
 * Where a schema that is only a `$ref` (and annotations) leads: most response media types
 * name a component schema (93 media types, 39 distinct schemas per platform version), and
 * the target validates alike whichever response names it. A failure's rule names the
 * schema object that failed (locateNode, by identity), never the `$ref` that led there, so
 * failures are the same. Stops at anything else, and at a percent-encoded fragment.
 */
function plainRefTarget(uri: string, pointer: string): { uri: string; pointer: string } {
  for (let hops = 0; hops < 32; hops++) {
    const node = getByPointer(readYamlUri(uri), pointer) as Record<string, unknown> | undefined;
    const ref = node && typeof node === 'object' ? node.$ref : undefined;
    if (typeof ref !== 'string' || !Object.keys(node!).every((k) => PLAIN_REF_KEYS.has(k))) break;
    const hash = ref.indexOf('#');
    const fragment = hash === -1 ? '' : ref.slice(hash + 1);
    if (fragment.includes('%') || (fragment !== '' && !fragment.startsWith('/'))) break;
    const file = hash === -1 ? ref : ref.slice(0, hash);
    uri = file ? new URL(file, uri).href : uri;
    pointer = fragment;
  }
  return { uri, pointer };
}

/** One ajv and the validators compiled with it, by schema location: the contract's only memo. */
export class Validators {
  private ajv?: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  /** The validator of the schema at `at`, compiled on first use; null when there is no schema. */
  of(at: SchemaAt): ValidateFunction | null {
    if (!at.schemaUri || at.schemaPointer === undefined) return null;
    const key = `${at.schemaUri}#${at.schemaPointer}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      // Kept under the schema's own location too, so the `$ref` is followed once.
      const { uri, pointer } = plainRefTarget(at.schemaUri, at.schemaPointer);
      const target = `${uri}#${pointer}`;
      validate = this.compiled.get(target) ?? compileAt((this.ajv ??= createAjv()), uri, pointer);
      this.compiled.set(target, validate);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

// ---- ajv errors -> failures -------------------------------------------------------

/** Keywords whose mismatch on an `x-svc-opaque` string is informational (Versioning, non-breaking). */
const OPAQUE_KEYWORDS = new Set(['pattern', 'format', 'minLength', 'maxLength']);
/** Keywords whose error only summarises the errors of their subschemas: their tier follows those causes. */
const COMBINATORS = new Set(['anyOf', 'oneOf', 'if']);

const RULE_ENUM = 'Versioning: "Enumerated response fields (for example account subtype) may gain values"';
const RULE_OPAQUE = 'Versioning: "changing length or format of opaque strings (identifiers, messages)" is non-breaking';
const RULE_NULL =
  'null where a type is stated: the specification states "string or null" only for aggregated_at and successfully_aggregated_at and is silent on the nullability of every other field; a null is reported, never gating';

/**
 * The tier of one ajv error (contracts/failure.ts, Tier):
 *   informational  an `enum` mismatch (Versioning: enumerated fields may gain values), unless
 *                  the value is a stated one re-cased (recased: stated); a pattern/format/length
 *                  mismatch on an `x-svc-opaque` string (Versioning: non-breaking), unless it
 *                  lacks the stated prefix (withoutPrefix: stated); a `type` mismatch whose value is null inside a resource
 *                  (RULE_NULL; ../shared/real-service-notes.md, "Nullability"). A null as the
 *                  whole response object (`{"member": null}`, depth 1) stays stated: the
 *                  Endpoints tables state the response object itself.
 *   inferred       any keyword of a schema that carries `x-svc-inferred: "<why>"` (spec/CONVENTIONS.md)
 *   stated         everything else: the documents type and require only what is stated.
 */
function tierOfError(e: ErrorObject): Tier {
  const parent = e.parentSchema as Record<string, unknown> | undefined;
  if (e.keyword === 'enum') return recased(e) ? 'stated' : 'informational';
  if (OPAQUE_KEYWORDS.has(e.keyword) && parent?.['x-svc-opaque'] === true) return withoutPrefix(e) ? 'stated' : 'informational';
  if (e.keyword === 'type' && e.data === null && e.instancePath.lastIndexOf('/') > 0) return 'informational';
  if (typeof parent?.['x-svc-inferred'] === 'string') return 'inferred';
  return 'stated';
}

/**
 * A string that differs from a value of a stated set only by case (`connected` for
 * CONNECTED): the stated value misspelt, not a value the field gained (States and
 * transitions: "Values seen: PENDING, CONNECTED, ..."; a client comparing with the stated
 * spelling no longer recognises it). A set whose spelling the specification does not fix
 * carries `x-svc-any-case: "<why>"` (spec/CONVENTIONS.md), and then any spelling is a new value.
 */
function recased(e: ErrorObject): boolean {
  const parent = e.parentSchema as Record<string, unknown> | undefined;
  if (typeof parent?.['x-svc-any-case'] === 'string' || typeof e.data !== 'string') return false;
  const lower = e.data.toLowerCase();
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues ?? [];
  return allowed.some((v) => typeof v === 'string' && v !== e.data && v.toLowerCase() === lower);
}

/**
 * An opaque identifier without its stated prefix (`x-svc-prefix`: Resources, identifier
 * shapes "USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account"): the rest of the string
 * is opaque (Versioning: its length and format may change), the prefix is stated.
 */
function withoutPrefix(e: ErrorObject): boolean {
  const prefix = (e.parentSchema as Record<string, unknown> | undefined)?.['x-svc-prefix'];
  return e.keyword === 'pattern' && typeof prefix === 'string' && typeof e.data === 'string' && !e.data.startsWith(prefix);
}

const RULE_RECASED =
  'a value differing from a stated value only by case is that value misspelt, not a value the field gained (a client comparing with the stated spelling no longer recognises it)';
const RULE_PREFIX =
  'Resources and their fields: "Identifier shapes: USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account" (the prefix is stated; the rest is opaque: Versioning, "changing length or format of opaque strings" is non-breaking)';

const RANK: Record<Tier, number> = { informational: 0, inferred: 1, stated: 2 };

function shortJson(value: unknown): string {
  // JSON.stringify writes a number beyond binary64's range (`1e999999` parsed) as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** What the failing keyword asked for, in words (the ajv `params` of each keyword). */
function expected(e: ErrorObject): string {
  const p = e.params as any;
  switch (e.keyword) {
    case 'enum':
      return `one of ${shortJson(p.allowedValues)}`;
    case 'const':
      return shortJson(p.allowedValue);
    case 'required':
      return `property "${p.missingProperty}" present`;
    case 'type':
      return `type ${Array.isArray(p.type) ? p.type.join(' or ') : p.type}`;
    case 'pattern':
      return `a string matching ${p.pattern}`;
    case 'format':
      return `format "${p.format}"`;
    case 'anyOf':
    case 'oneOf':
      return `a match for ${e.keyword === 'anyOf' ? 'one or more' : 'exactly one'} of the ${e.keyword} alternatives (the causes are listed at the same location)`;
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'multipleOf':
      return `${e.keyword} ${p.limit ?? p.multipleOf}`;
    default:
      return e.message ?? e.keyword;
  }
}

/** Names a spec file in a rule: a path relative to spec/ (default: the file name). */
export type DisplayName = (uri: string) => string;

const defaultDisplayName: DisplayName = (uri) => uri.slice(uri.lastIndexOf('/') + 1);

/**
 * `<keyword> at <document>#<JSON pointer>`: the schema object that failed, found by
 * identity in the loaded files (ajv's own `schemaPath` is relative to whichever `$ref`
 * target it was in, or a long `file://` URI). Falls back to that path, shortened.
 */
export function schemaRule(e: ErrorObject, displayName: DisplayName = defaultDisplayName): string {
  const at = locateNode(e.parentSchema);
  if (at) return `${e.keyword} at ${displayName(at.uri)}#${at.pointer}`;
  let path = e.schemaPath;
  const hash = path.indexOf('#');
  if (path.startsWith('file:') && hash !== -1) path = `${displayName(path.slice(0, hash))}${path.slice(hash)}`;
  return `${e.keyword} at ${path}`;
}

/**
 * A bounded report (every body is bounded, and so is what is said about it): of each kind
 * of mismatch (the same keyword of the same schema at the same place of every record,
 * `institutions[*].guid`), the first SCHEMA_FAILURES_PER_KIND are listed and one more
 * failure counts the rest; kinds beyond SCHEMA_FAILURE_KINDS are counted in one failure
 * whose tier is the strongest among them, so a gating mismatch is never hidden. A page of
 * 1000 records with the same defect in each gives 11 failures, not 1000; a 20 MB page of
 * broken records no longer gives half a million.
 */
export const SCHEMA_FAILURES_PER_KIND = 10;
export const SCHEMA_FAILURE_KINDS = 200;

/** The same place in every record of a list: array indices as `*`. */
const anyIndex = (instancePath: string) => instancePath.replace(/\/\d+(?=\/|$)/g, '/*');

/**
 * Turns ajv errors into failures, each with its tier (tierOfError) and the severity the
 * tier gives under the profile (`strict`: inferred failures gate). A combinator
 * (`anyOf`/`oneOf`/`if`) takes the strongest tier of its causes at or below its location,
 * so `type: [string, null]` + enum still tolerates a new value. The report is bounded
 * (SCHEMA_FAILURES_PER_KIND, SCHEMA_FAILURE_KINDS) and its cost linear in the errors.
 */
export function schemaFailures(
  errors: readonly ErrorObject[] | null | undefined,
  check: string,
  operation: string,
  prefix: string,
  displayName?: DisplayName,
  strict = false,
): Failure[] {
  if (!errors || errors.length === 0) return [];
  const tiers = errors.map(tierOfError);
  // The strongest tier of the non-combinator errors at or below each location: every
  // error raises its own path and each ancestor path (linear in errors times depth).
  const strongestAt = new Map<string, number>();
  for (let j = 0; j < errors.length; j++) {
    if (COMBINATORS.has(errors[j].keyword)) continue;
    const p = errors[j].instancePath;
    const rank = RANK[tiers[j]];
    for (let cut = p.length; cut >= 0; cut = cut === 0 ? -1 : p.lastIndexOf('/', cut - 1)) {
      const at = p.slice(0, cut);
      if ((strongestAt.get(at) ?? -1) < rank) strongestAt.set(at, rank);
      if (cut === 0) break;
    }
  }
  const out: Failure[] = [];
  const kinds = new Map<string, { first: Failure; pattern: string; more: number }>();
  const otherKinds = new Set<string>();
  const otherTiers: Record<Tier, number> = { stated: 0, inferred: 0, informational: 0 };
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i];
    let tier = tiers[i];
    if (COMBINATORS.has(e.keyword)) {
      const strongest = strongestAt.get(e.instancePath) ?? -1;
      if (strongest >= 0) tier = strongest === 2 ? 'stated' : strongest === 1 ? 'inferred' : 'informational';
    }
    const missing = e.keyword === 'required' ? (e.params as any).missingProperty : undefined;
    const pattern = anyIndex(e.instancePath);
    const kindKey = `${tier}\u0000${e.keyword}\u0000${e.schemaPath}\u0000${pattern}\u0000${missing ?? ''}`;
    const kind = kinds.get(kindKey);
    if (kind && kind.more + 1 >= SCHEMA_FAILURES_PER_KIND) {
      kind.more++;
      continue;
    }
    if (!kind && kinds.size >= SCHEMA_FAILURE_KINDS) {
      otherKinds.add(kindKey);
      otherTiers[tier]++;
      continue;
    }
    const where = schemaRule(e, displayName);
    const parent = e.parentSchema as Record<string, unknown> | undefined;
    const rule =
      e.keyword === 'enum'
        ? `${where} (${tier === 'stated' ? RULE_RECASED : RULE_ENUM})`
        : tier === 'stated' && OPAQUE_KEYWORDS.has(e.keyword) && parent?.['x-svc-opaque'] === true
          ? `${where} (${RULE_PREFIX})`
          : tier === 'informational' && OPAQUE_KEYWORDS.has(e.keyword)
            ? `${where} (${RULE_OPAQUE})`
            : tier === 'informational' && e.keyword === 'type'
              ? `${where} (${RULE_NULL})`
              : tier === 'inferred' && typeof parent?.['x-svc-inferred'] === 'string'
                ? `${where} (inferred: ${parent['x-svc-inferred']})`
                : where;
    const failure: Failure = {
      check,
      operation,
      location: locationOf(prefix, e.instancePath, missing),
      rule,
      severity: severityOfTier(tier, strict),
      tier,
      message:
        missing !== undefined ? `Received: no property "${missing}" / Expected: ${expected(e)}` : `Received: ${shortJson(e.data)} / Expected: ${expected(e)}`,
    };
    out.push(failure);
    if (kind) kind.more++;
    else kinds.set(kindKey, { first: failure, pattern: normaliseLocation(failure.location), more: 0 });
  }
  for (const { first, pattern, more } of kinds.values()) {
    const unlisted = more + 1 - SCHEMA_FAILURES_PER_KIND;
    if (unlisted <= 0) continue;
    out.push({
      ...first,
      location: pattern,
      message: `${unlisted} more at other indices, not listed (the first ${SCHEMA_FAILURES_PER_KIND} of each kind are): ${first.message}`,
    });
  }
  if (otherKinds.size) {
    const tier: Tier = otherTiers.stated ? 'stated' : otherTiers.inferred ? 'inferred' : 'informational';
    const count = otherTiers.stated + otherTiers.inferred + otherTiers.informational;
    out.push({
      check,
      operation,
      location: prefix,
      rule: `the documented schema (a bounded report: ${SCHEMA_FAILURE_KINDS} kinds of mismatch are listed, the others counted)`,
      severity: severityOfTier(tier, strict),
      tier,
      message: `${count} more mismatches of ${otherKinds.size} other kinds not listed: ${otherTiers.stated} stated, ${otherTiers.inferred} inferred, ${otherTiers.informational} informational`,
    });
  }
  return out;
}
