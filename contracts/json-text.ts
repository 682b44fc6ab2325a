/**
 * A received body as JSON text (RFC 8259), read in one place for every reader of a
 * target's answer: contract.ts `checkReceived` calls `readJsonText` (the checked client,
 * the fuzz engine and the integration judge all go through it), and the check
 * `response_json_text` reports what the reading found.
 *
 *   - Nesting is bounded (MAX_JSON_DEPTH) by a linear pre-scan before JSON.parse: the
 *     checks, the redactor and the reports walk a body recursively, and a body nested
 *     100 000 levels deep would overflow the stack of the first of them. A deeper body is
 *     not parsed; the checks see no body and one finding names the bound and the depth.
 *   - The text carries the bytes that are not UTF-8 (`decodeBody`, below): RFC 8259 §8.1,
 *     "JSON text exchanged between systems that are not part of a closed ecosystem MUST
 *     be encoded using UTF-8".
 *   - The same scan notes member names repeated in one object (RFC 8259 §4) and numbers no
 *     binary64 reader holds as sent (RFC 8259 §6); a number is judged against the type the
 *     schema states at its place, so a correct body never gives a finding.
 *
 * `printable` is what a message or a console line shows of a received text: one line,
 * bounded, control characters and bytes that are not UTF-8 escaped, never raw binary.
 */
import { isUtf8 } from 'node:buffer';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { validateBody } from './checks.ts';
import { schemaRule } from './compile.ts';
import { locationOf, severityOfTier, type Failure, type Tier } from './failure.ts';
import { exchangeCheck, registerCheck, type Exchange, type ExchangeContext } from './registry.ts';

/**
 * The deepest nesting read (RFC 8259 §9: "An implementation may set limits on the maximum
 * depth of nesting"). The documents' deepest body nests a handful of levels; 128 (the
 * default of serde_json, above .NET's 64 and Ruby's 100) leaves every recursive reader of
 * a body far from the stack's end.
 */
export const MAX_JSON_DEPTH = 128;

/** Findings listed per kind and answer; beyond, one finding counts them. */
const LISTED = 20;
/** Out-of-range numbers judged against the schema per answer (one validation judges them all); beyond, counted. */
const NOTED = 1000;

export const JSON_TEXT_CHECK = 'response_json_text';

export const JSON_TEXT_RULES = {
  // Stated, as the transport's bounds gate: the bound is this judge's, not the target's
  // fault by any sentence, but an answer no check could read is never passed, and no
  // documented body comes near it.
  depth: `RFC 8259 §9: "An implementation may set limits on the maximum depth of nesting"; this judge reads JSON nested up to ${MAX_JSON_DEPTH} levels, far beyond any body the documents describe, and passes no answer it could not read (Endpoints: "Request and response bodies are JSON")`,
  utf8: 'Endpoints: "Request and response bodies are JSON"; RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"',
  // Inferred, not stated: a SHOULD of the RFC, so an object with a repeated name is still
  // JSON as the specification states it; but "the behavior of software that receives such
  // an object is unpredictable" (§4), and an integration may read another value than the
  // one judged.
  uniqueNames:
    'RFC 8259 §4: "The names within an object SHOULD be unique" ("When the names within an object are not unique, the behavior of software that receives such an object is unpredictable"); inferred: a SHOULD, so the body is still JSON as the specification states',
  infinite:
    'RFC 8259 §9: "An implementation may set limits on the range and precision of numbers"; §6: "Numeric values that cannot be represented in the grammar below (such as Infinity and NaN) are not permitted": a number beyond the range of binary64 is read as Infinity, which the stated type cannot hold',
  // Inferred: neither the specification nor the RFC forbids a larger integer, but a
  // binary64 reader (JavaScript, most JSON libraries) reads another value than was sent.
  imprecise:
    'RFC 8259 §6: "numbers that are integers and are in the range [-(2**53)+1, (2**53)-1] are interoperable in the sense that implementations will agree exactly on their numeric values"; inferred: nothing forbids a larger integer, but a binary64 reader reads another value than was sent',
} as const;

// ---- bytes -> text ----------------------------------------------------------------

/** A byte that is not part of valid UTF-8 becomes this code unit plus the byte (U+DC80..U+DCFF). */
const ESCAPED_BYTE = 0xdc00;

/** Length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), 0 when there is none. */
function sequenceAt(b: Uint8Array, i: number): number {
  const b0 = b[i]!;
  const n = b.length;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < n && b[i + k]! >= lo && b[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * A body's bytes as text: UTF-8, each byte that is not part of a well-formed sequence kept
 * as the lone surrogate U+DC80..U+DCFF (the "surrogateescape" of Python's PEP 383). Valid
 * UTF-8 never decodes to a lone surrogate, so the text itself says which bytes were not
 * UTF-8 (`readJsonText` reports them) and `printable` shows each as `\xNN`; a replacement
 * character would hide the fault and the byte.
 */
export function decodeBody(bytes: Uint8Array): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf)) return buf.toString('utf8');
  const units = new Uint16Array(buf.length);
  let k = 0;
  for (let i = 0; i < buf.length; ) {
    const b0 = buf[i]!;
    if (b0 < 0x80) {
      units[k++] = b0;
      i++;
      continue;
    }
    const len = sequenceAt(buf, i);
    if (len === 0) {
      units[k++] = ESCAPED_BYTE + b0;
      i++;
      continue;
    }
    let cp =
      len === 2
        ? ((b0 & 0x1f) << 6) | (buf[i + 1]! & 0x3f)
        : len === 3
          ? ((b0 & 0x0f) << 12) | ((buf[i + 1]! & 0x3f) << 6) | (buf[i + 2]! & 0x3f)
          : ((b0 & 0x07) << 18) | ((buf[i + 1]! & 0x3f) << 12) | ((buf[i + 2]! & 0x3f) << 6) | (buf[i + 3]! & 0x3f);
    if (cp > 0xffff) {
      cp -= 0x10000;
      units[k++] = 0xd800 + (cp >> 10);
      units[k++] = 0xdc00 + (cp & 0x3ff);
    } else units[k++] = cp;
    i += len;
  }
  // Code units to a string a slice at a time: one call with every unit as an argument
  // would pass the engine's argument limit.
  const parts: string[] = [];
  for (let from = 0; from < k; from += 8192) parts.push(String.fromCharCode.apply(null, units.subarray(from, Math.min(k, from + 8192)) as unknown as number[]));
  return parts.join('');
}

/** A code unit no UTF-8 text decodes to: a surrogate without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Bytes of `text` before `index`, each escaped byte counted as the one byte it was. */
function byteOffset(text: string, index: number): number {
  const prefix = text.slice(0, index);
  const lone = prefix.match(LONE_SURROGATES)?.length ?? 0;
  // Buffer.byteLength counts a lone surrogate as the 3 bytes of U+FFFD.
  return Buffer.byteLength(prefix, 'utf8') - 2 * lone;
}

// ---- what a message shows ---------------------------------------------------------

/** Characters a terminal acts on or hides: C0/C1 controls, bidirectional controls, lone surrogates. */
const UNPRINTABLE =
  /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

function escapeUnit(ch: string): string {
  const u = ch.charCodeAt(0);
  if (u >= ESCAPED_BYTE + 0x80 && u <= ESCAPED_BYTE + 0xff) return `\\x${hex(u - ESCAPED_BYTE, 2)}`;
  return u < 0x80 ? `\\x${hex(u, 2)}` : `\\u${hex(u, 4)}`;
}

/**
 * What a message shows of a received text: one line (whitespace runs collapsed), at most
 * `max` characters of it, every control character and every byte that was not UTF-8
 * escaped (`\x1F`, `\x8B`, `\u202E`), so a binary or hostile body never reaches a console
 * or a report raw.
 */
export function printable(text: string, max = 200): string {
  // The collapse runs on a bounded prefix: a 16 MiB body costs no more than a short one.
  let s = text
    .slice(0, max * 4 + 64)
    .replace(/\s+/g, ' ')
    .trim();
  const cut = s.length > max;
  if (cut) {
    s = s.slice(0, max);
    // A pair cut in half would show as an escaped half.
    const last = s.charCodeAt(s.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1);
  }
  s = s.replace(UNPRINTABLE, escapeUnit);
  return cut || text.length > max * 4 + 64 ? `${s}…` : s;
}

const shortText = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max)}…` : s);

// ---- reading ----------------------------------------------------------------------

export interface JsonReading {
  /** The body as the checks read it: the parsed value, the text when it is not JSON, undefined when it was not read (too deep). */
  body: unknown;
  /** Why the text is not JSON (JSON.parse's message, printable). */
  invalidJson?: string;
  /** Nested beyond the bound: the depth reached and the byte where the first level beyond it opens. */
  tooDeep?: { bound: number; depth: number; byte: number };
  /** Bytes that are not UTF-8: how many, where the first is, and what surrounds it. */
  notUtf8?: { count: number; byte: number; sample: string };
  /** Names repeated in one object: the object's JSON pointer and the name (first LISTED). */
  repeatedNames: Array<{ pointer: string; name: string }>;
  /** Numbers no binary64 reader holds as sent (first NOTED): their JSON pointer, the text and what it parses as. */
  numbers: Array<{ pointer: string; raw: string; value: number }>;
  /** Noted beyond LISTED (names) or NOTED (numbers), counted. */
  unlisted: { repeatedNames: number; numbers: number };
}

interface Frame {
  array: boolean;
  /** The current element's index (an array) or member name (an object). */
  index: number;
  name: string;
  /** Names seen in this object; a Set once the object has many. */
  names: string[];
  set?: Set<string>;
}

const SMALL_OBJECT = 16;

const pointerSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON pointer of the current place inside the first `levels` containers. */
function pointerOf(frames: readonly Frame[], levels: number): string {
  let out = '';
  for (let d = 0; d < levels; d++) out += `/${frames[d]!.array ? frames[d]!.index : pointerSegment(frames[d]!.name)}`;
  return out;
}

/** The quote at `at` is escaped when an odd number of backslashes precede it. */
function escapedQuote(text: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === 0x5c; i--) n++;
  return n % 2 === 1;
}

/** A member name as JSON.parse reads it (`"\u0061"` and `"a"` are one name). */
function nameOf(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** A name already in the object (recorded when not). */
function repeated(f: Frame, name: string): boolean {
  if (f.set) {
    if (f.set.has(name)) return true;
    f.set.add(name);
    return false;
  }
  if (f.names.includes(name)) return true;
  f.names.push(name);
  if (f.names.length > SMALL_OBJECT) f.set = new Set(f.names);
  return false;
}

const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45;

/**
 * The exact integer a number's text denotes, when it denotes one (`12e3`, `4.50e1`, `7`);
 * undefined for a fraction or a text that is not a JSON number.
 */
function exactInteger(raw: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m) return undefined;
  let digits = m[2]! + (m[3] ?? '');
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  if (exp < 0) {
    const dropped = digits.slice(exp);
    if (!/^0*$/.test(dropped)) return undefined;
    digits = digits.slice(0, exp) || '0';
    exp = 0;
  }
  // A finite binary64 has at most 309 integer digits: anything longer is no finite number.
  if (digits.length + exp > 400) return undefined;
  return BigInt(`${m[1]}${digits}${'0'.repeat(exp)}`);
}

/**
 * A number no binary64 reader holds as sent: beyond the range (read as Infinity), or an
 * integer beyond 2^53 - 1 whose exact value is lost. Undefined otherwise.
 */
function outOfRange(raw: string): number | undefined {
  const value = Number(raw);
  if (Number.isNaN(value)) return undefined;
  if (!Number.isFinite(value)) return value;
  if (!Number.isInteger(value) || Math.abs(value) <= Number.MAX_SAFE_INTEGER) return undefined;
  const exact = exactInteger(raw);
  return exact !== undefined && exact !== BigInt(value) ? value : undefined;
}

interface Scan {
  depth: number;
  /** Index of the first opening bracket beyond the bound, -1 when none. */
  deepAt: number;
  repeatedNames: JsonReading['repeatedNames'];
  numbers: JsonReading['numbers'];
  unlisted: JsonReading['unlisted'];
}

/**
 * One linear pass over the text, strings skipped whole: the deepest nesting, and (within
 * the bound) the names repeated in an object and the numbers out of a binary64 reader's
 * range, each with its JSON pointer. No recursion and at most `bound` frames, whatever
 * the text. Not a validator: JSON.parse decides what is JSON.
 */
function scan(text: string, bound: number): Scan {
  const frames: Frame[] = [];
  const out: Scan = { depth: 0, deepAt: -1, repeatedNames: [], numbers: [], unlisted: { repeatedNames: 0, numbers: 0 } };
  let depth = 0;
  let nameNext = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escapedQuote(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) break; // unterminated: JSON.parse reports it
      if (nameNext && depth > 0 && depth <= bound) {
        const f = frames[depth - 1]!;
        f.name = nameOf(text.slice(i + 1, end));
        if (repeated(f, f.name) && out.depth <= bound) {
          if (out.repeatedNames.length < LISTED) out.repeatedNames.push({ pointer: pointerOf(frames, depth - 1), name: f.name });
          else out.unlisted.repeatedNames++;
        }
      }
      nameNext = false;
      i = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > out.depth) {
        out.depth = depth;
        if (depth === bound + 1) out.deepAt = i;
      }
      if (depth <= bound) {
        let f = frames[depth - 1];
        if (!f) frames.push((f = { array: false, index: 0, name: '', names: [] }));
        f.array = c === 0x5b;
        f.index = 0;
        f.name = '';
        f.names.length = 0;
        f.set = undefined;
      }
      nameNext = c === 0x7b;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--;
      nameNext = false;
      i++;
    } else if (c === 0x2c) {
      if (depth > 0 && depth <= bound) {
        const f = frames[depth - 1]!;
        if (f.array) f.index++;
        else nameNext = true;
      }
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      let exponent = false;
      while (j < n && isNumberChar(text.charCodeAt(j))) {
        if ((text.charCodeAt(j) | 0x20) === 0x65) exponent = true;
        j++;
      }
      // Fifteen digits or fewer, no exponent: every binary64 reader holds it exactly.
      if ((exponent || j - i > 15) && out.depth <= bound) {
        const raw = text.slice(i, j);
        const value = outOfRange(raw);
        if (value !== undefined) {
          if (out.numbers.length < NOTED) out.numbers.push({ pointer: pointerOf(frames, Math.min(depth, bound)), raw: shortText(raw, 40), value });
          else out.unlisted.numbers++;
        }
      }
      nameNext = false;
      i = j;
    } else i++;
  }
  return out;
}

/**
 * A received text read as JSON, once, for every check: bounded nesting first (a deeper
 * text is not parsed), then JSON.parse; the bytes that are not UTF-8, the repeated names
 * and the out-of-range numbers noted for `response_json_text`.
 */
export function readJsonText(text: string, bound = MAX_JSON_DEPTH): JsonReading {
  const reading: JsonReading = { body: undefined, repeatedNames: [], numbers: [], unlisted: { repeatedNames: 0, numbers: 0 } };
  const first = text.search(LONE_SURROGATE);
  if (first !== -1) {
    let count = 0;
    for (let i = first; i < text.length; i++) {
      const u = text.charCodeAt(i);
      if (u >= 0xd800 && u <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
      else if (u >= 0xd800 && u <= 0xdfff) count++;
    }
    let from = Math.max(0, first - 20);
    // The sample starts on a whole character: a pair cut in half would show as a fault of its own.
    if (from > 0 && (text.charCodeAt(from) & 0xfc00) === 0xdc00 && (text.charCodeAt(from - 1) & 0xfc00) === 0xd800) from--;
    reading.notUtf8 = { count, byte: byteOffset(text, first), sample: printable(text.slice(from, first + 20), 60) };
  }
  const s = scan(text, bound);
  if (s.depth > bound) {
    reading.tooDeep = { bound, depth: s.depth, byte: byteOffset(text, s.deepAt) };
    return reading;
  }
  try {
    reading.body = JSON.parse(text);
  } catch (e) {
    reading.body = text;
    reading.invalidJson = printable((e as Error).message, 300);
    return reading;
  }
  reading.repeatedNames = s.repeatedNames;
  reading.numbers = s.numbers;
  reading.unlisted = s.unlisted;
  return reading;
}

/** The message of a body nested beyond the bound: the finding's and the checked client's. */
export function tooDeepMessage(deep: NonNullable<JsonReading['tooDeep']>): string {
  return `Received: a JSON body nested deeper than ${deep.bound} levels (${deep.depth} levels; level ${deep.bound + 1} opens at byte ${deep.byte}) / Expected: at most ${deep.bound} levels, the nesting this judge reads (the body was not parsed: no check read it)`;
}

// ---- the check --------------------------------------------------------------------

/** Each exchange checkReceived built from a text, with what reading the text found. */
const readings = new WeakMap<Exchange, JsonReading>();

/** Called by checkReceived once the exchange the checks read is built. */
export function noteReading(exchange: Exchange, reading: JsonReading): void {
  readings.set(exchange, reading);
}

interface Located {
  get(): unknown;
  set(v: unknown): void;
}

/** The place a JSON pointer names in a parsed body (own data properties only), or undefined. */
function place(root: { body: unknown }, pointer: string): Located | undefined {
  if (pointer === '') return { get: () => root.body, set: (v) => (root.body = v) };
  const segments = pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent: unknown = root.body;
  for (let d = 0; d < segments.length - 1; d++) {
    if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, segments[d]!)) return undefined;
    parent = (parent as Record<string, unknown>)[segments[d]!];
  }
  const key = segments.at(-1)!;
  if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, key)) return undefined;
  const holder = parent as Record<string, unknown>;
  // defineProperty, not assignment: a member named "__proto__" is an own property here.
  return { get: () => holder[key], set: (v) => Object.defineProperty(holder, key, { value: v, writable: true, enumerable: true, configurable: true }) };
}

/** Stands in for a noted number while the schema is asked what type it states at that place. */
const PROBE = Symbol.for('svc.contracts.json-text.probe');

/**
 * The type the schema states at each noted number's place: each is replaced by a value of
 * no JSON type and the body validated once; a `type` error at the place names the stated
 * type (through every `$ref`, `allOf` and `anyOf` as ajv follows them). The body is
 * restored before anything else reads it.
 */
function statedTypes(c: ExchangeContext, body: unknown, pointers: readonly string[]): Map<string, ErrorObject> {
  const found = new Map<string, ErrorObject>();
  const validate = c.media?.schemaUri ? c.validator(c.media) : null;
  if (!validate) return found;
  const root = { body };
  const swapped: Array<{ at: Located; was: unknown }> = [];
  try {
    for (const p of new Set(pointers)) {
      const at = place(root, p);
      if (!at) continue;
      swapped.push({ at, was: at.get() });
      at.set(PROBE);
    }
    if (!swapped.length) return found;
    for (const e of validateBody(validate, root.body, c.operation?.listKey)) {
      if (e.keyword !== 'type' || found.has(e.instancePath)) continue;
      const types = ([] as string[]).concat((e.params as { type: string | string[] }).type);
      if (types.includes('integer') || types.includes('number')) found.set(e.instancePath, e);
    }
  } finally {
    for (const s of swapped.reverse()) s.at.set(s.was);
  }
  return found;
}

function jsonTextFailures(c: ExchangeContext, r: JsonReading): Failure[] {
  const failure = (location: string, rule: string, tier: Tier, message: string): Failure => ({
    check: JSON_TEXT_CHECK,
    operation: c.operationKey,
    location,
    rule,
    severity: severityOfTier(tier, c.options.strict),
    tier,
    message,
  });
  // Not read at all: this one finding, and no check sees a body.
  if (r.tooDeep) return [failure('response.body', JSON_TEXT_RULES.depth, 'stated', tooDeepMessage(r.tooDeep))];
  const out: Failure[] = [];
  if (r.notUtf8) {
    const { count, byte, sample } = r.notUtf8;
    out.push(
      failure(
        'response.body',
        JSON_TEXT_RULES.utf8,
        'stated',
        `Received: ${count} byte${count === 1 ? '' : 's'} that ${count === 1 ? 'is' : 'are'} not UTF-8, the first at byte ${byte}: ${sample} / Expected: JSON text encoded in UTF-8`,
      ),
    );
  }
  for (const { pointer, name } of r.repeatedNames) {
    out.push(
      failure(
        locationOf('response.body', pointer, shortText(name)),
        JSON_TEXT_RULES.uniqueNames,
        'inferred',
        `Received: the name ${JSON.stringify(shortText(name))} more than once in one object (the checks read its last value, as JSON.parse keeps it) / Expected: unique names within an object`,
      ),
    );
  }
  if (r.unlisted.repeatedNames)
    out.push(
      failure(
        'response.body',
        JSON_TEXT_RULES.uniqueNames,
        'inferred',
        `${r.unlisted.repeatedNames} more names repeated in an object, not listed (the first ${LISTED} are)`,
      ),
    );
  if (r.numbers.length) {
    const stated = statedTypes(
      c,
      c.exchange.response.body,
      r.numbers.map((x) => x.pointer),
    );
    const found: Failure[] = [];
    for (const { pointer, raw, value } of r.numbers) {
      const e = stated.get(pointer);
      if (!e) continue;
      const types = ([] as string[]).concat((e.params as { type: string | string[] }).type);
      const where = schemaRule(e, c.model.displayName);
      const inferredSchema = typeof (e.parentSchema as Record<string, unknown> | undefined)?.['x-svc-inferred'] === 'string';
      if (!Number.isFinite(value)) {
        found.push(
          failure(
            locationOf('response.body', pointer),
            `${where} (${JSON_TEXT_RULES.infinite})`,
            inferredSchema ? 'inferred' : 'stated',
            `Received: ${raw} (beyond the range of a binary64 number: it parses as ${value}) / Expected: type ${types.join(' or ')}`,
          ),
        );
      } else if (types.includes('integer')) {
        found.push(
          failure(
            locationOf('response.body', pointer),
            `${where} (${JSON_TEXT_RULES.imprecise})`,
            'inferred',
            `Received: ${raw} (beyond 2^53 - 1: a binary64 reader gets ${String(value)}) / Expected: type ${types.join(' or ')}, within ±(2^53 - 1) where readers agree exactly`,
          ),
        );
      }
    }
    for (const f of found.slice(0, LISTED)) out.push(f);
    // The rest counted under the strongest tier among them: a gating one is never hidden.
    const rest = found.slice(LISTED);
    if (rest.length || r.unlisted.numbers) {
      const tier: Tier = rest.some((f) => f.tier === 'stated') ? 'stated' : 'inferred';
      out.push(
        failure(
          'response.body',
          tier === 'stated' ? JSON_TEXT_RULES.infinite : JSON_TEXT_RULES.imprecise,
          tier,
          `${rest.length} more numbers the stated type cannot hold as sent, not listed (the first ${LISTED} are)${
            r.unlisted.numbers ? `; ${r.unlisted.numbers} more numbers beyond what a binary64 reader holds, not judged (the first ${NOTED} are)` : ''
          }`,
        ),
      );
    }
  }
  return out;
}

registerCheck(
  exchangeCheck({
    name: JSON_TEXT_CHECK,
    description:
      'The body as JSON text (RFC 8259): nested within the bound this judge reads, UTF-8, names unique within an object, numbers the stated type can hold',
    appliesTo: (c) => readings.has(c.exchange),
    run: (c) => jsonTextFailures(c, readings.get(c.exchange)!),
  }),
);
