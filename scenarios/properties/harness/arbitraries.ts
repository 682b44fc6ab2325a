/**
 * fast-check generators of webhook deliveries, DERIVED from the webhook schemas of
 * spec/ (schemas.ts): each documented property may be absent, null (Events rule
 * 2: "Fields can be null") or a value of its schema; `_at` fields are epoch seconds
 * and `_on` fields dates (rule 1); enumerated fields may carry new values (Versioning);
 * fields are added at random and come in any order (rule 2).
 */
import fc from 'fast-check';
import { loadWebhookSchemas, type JsonSchema } from './schemas.ts';

const WEBHOOK_SCHEMAS = loadWebhookSchemas();
const WEBHOOK_TYPES = Object.keys(WEBHOOK_SCHEMAS.schemas);

export interface Delivery {
  type: string;
  body: Record<string, unknown>;
}

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

const EPOCH_SECONDS = fc.integer({ min: 0, max: 4_102_444_800 }); // up to 2100-01-01
const DATE = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const GUID = fc.uuid().map((u) => `MBR-${u}`);

/** A value of a schema; depth-bounded so generated bodies stay small. */
export function valueOf(schema: JsonSchema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueOf(s, name, depth)));
  if (schema.allOf?.length) return valueOf(Object.assign({}, ...schema.allOf), name, depth);
  if (schema.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), fc.string({ maxLength: 12 }));
  const types = typesOf(schema).filter((t) => t !== 'null');
  const nullable = typesOf(schema).includes('null');
  const one = (t: string | undefined): fc.Arbitrary<unknown> => {
    if (name.endsWith('_at') && (t === 'integer' || t === 'number' || t === undefined)) return EPOCH_SECONDS;
    if (name.endsWith('_on') || schema.format === 'date') return DATE;
    switch (t) {
      case 'string':
        return name.endsWith('guid') ? GUID : fc.string({ maxLength: 24 });
      case 'integer':
        return fc.integer({ min: typeof schema.minimum === 'number' ? schema.minimum : -1_000_000, max: 1_000_000_000 });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return depth > 2 ? fc.constant([]) : fc.array(valueOf(schema.items, '', depth + 1), { maxLength: 3 });
      case 'object':
        return depth > 2 ? fc.constant({}) : objectOf(schema, depth + 1);
      default:
        return schema.properties ? objectOf(schema, depth + 1) : fc.jsonValue({ maxDepth: 1 });
    }
  };
  const base = types.length > 1 ? fc.oneof(...types.map(one)) : one(types[0]);
  // Every webhook field is nullable (Events rule 2), whatever the schema spells out.
  void nullable;
  return fc.option(base, { nil: null, freq: 5 });
}

/** An object of a schema: each property present or not (required ones always). */
function objectOf(schema: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  return entriesOf(schema, depth).map((e) => Object.fromEntries(e));
}

/** The entries of an object of a schema, in schema order (callers shuffle). */
function entriesOf(schema: JsonSchema, depth = 0): fc.Arbitrary<Array<[string, unknown]>> {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const entries = props.map(([k, s]) =>
    required.has(k)
      ? valueOf(s, k, depth).map((v) => [[k, v]] as Array<[string, unknown]>)
      : fc.option(
          valueOf(s, k, depth).map((v) => [[k, v]] as Array<[string, unknown]>),
          { nil: [] as Array<[string, unknown]> },
        ),
  );
  return fc.tuple(...(entries as fc.Arbitrary<Array<[string, unknown]>>[])).map((lists) => lists.flat());
}

/** Field names the schemas do not show (rule 2: "Fields may be added at any time"). */
const ADDED_NAME = fc.stringMatching(/^added_[a-z0-9_]{1,12}$/);

/** Reorders the keys of an object (rule 2: "field order is not fixed"). */
function shuffled(entries: Array<[string, unknown]>): fc.Arbitrary<Record<string, unknown>> {
  if (entries.length < 2) return fc.constant(Object.fromEntries(entries));
  return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map((e) => Object.fromEntries(e));
}

/** A valid delivery of one of the documented types (or an unknown type, which a receiver must also accept). */
export function deliveryArb(options: { types?: string[]; addedFields?: boolean } = {}): fc.Arbitrary<Delivery> {
  const types = options.types ?? WEBHOOK_TYPES;
  const typeArb = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...types) }, { weight: 1, arbitrary: fc.stringMatching(/^[a-z][a-z_]{2,20}$/) });
  return typeArb.chain((type) => {
    const schema = WEBHOOK_SCHEMAS.schemas[type] ?? { type: 'object', properties: {} };
    const added =
      options.addedFields === false
        ? fc.constant([] as Array<[string, unknown]>)
        : fc.array(fc.tuple(ADDED_NAME, fc.jsonValue({ maxDepth: 2 })), { maxLength: 3 });
    return fc.tuple(entriesOf(schema), added).chain(([documented, extra]) => {
      const known = new Set(documented.map(([k]) => k));
      const merged = [...documented, ...extra.filter(([k]) => !known.has(k))];
      return shuffled(merged).map((body) => ({ type, body }));
    });
  });
}

/**
 * Bodies that are not valid JSON: truncated documents, single quotes, trailing commas,
 * bare words, empty bodies, random text. Every one is checked to fail JSON.parse.
 */
export const malformedBodyArb: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .jsonValue({ maxDepth: 2 })
      .map((v) => JSON.stringify({ v }))
      .chain((s) => fc.integer({ min: 1, max: s.length - 1 }).map((n) => s.slice(0, n))),
    fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer(), { minKeys: 1, maxKeys: 3 }).map((o) => JSON.stringify(o).replace(/"/g, "'")),
    fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer(), { minKeys: 1, maxKeys: 3 }).map((o) => JSON.stringify(o).replace(/}$/, ',}')),
    fc.constantFrom('', ' ', 'undefined', 'NaN', '{version: 2}', '{"a":1}{"b":2}', '<xml/>', '{"a":01}', '\u0000'),
    fc.string({ maxLength: 40 }),
  )
  .filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  });
