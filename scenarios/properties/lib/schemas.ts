/**
 * The webhook payload schemas the generators are derived from: the `webhooks` section
 * of spec/platform.openapi.yaml (spec/CONVENTIONS.md: `webhooks.<type>.post.
 * requestBody.content.application/json.schema`), with local `$ref`s resolved. Until
 * that document exists, a minimal fixture stands in, built only from what the
 * specification's Events section states (rule 9 field names; rule 1 `_at`/`_on`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  [k: string]: unknown;
};

export const PLATFORM_DOCUMENT = fileURLToPath(new URL('../../../spec/platform.openapi.yaml', import.meta.url));

const nullable = (t: string, extra: JsonSchema = {}): JsonSchema => ({ type: [t, 'null'], ...extra });
const epochSeconds = nullable('integer', { minimum: 0 });
const date = nullable('string', { format: 'date' });

/** Stand-in until spec/ has its webhooks section; every field nullable (Events rule 2). */
export const FIXTURE_WEBHOOK_SCHEMAS: Record<string, JsonSchema> = {
  member: {
    type: 'object',
    properties: {
      guid: nullable('string'), user_guid: nullable('string'), user_id: nullable('string'),
      connection_status: nullable('string'), is_oauth: nullable('boolean'), is_being_aggregated: nullable('boolean'),
      use_cases: { type: ['array', 'null'], items: { type: 'string' } }, version: nullable('integer', { minimum: 0 }),
      updated_at: epochSeconds, aggregated_at: epochSeconds, x_callback_payload: nullable('string'),
    },
  },
  aggregation: {
    type: 'object',
    properties: {
      member_guid: nullable('string'), user_guid: nullable('string'), user_id: nullable('string'),
      job_guid: nullable('string'), is_background: nullable('boolean'), completed_at: epochSeconds, completed_on: date,
    },
  },
  connection_status: {
    type: 'object',
    properties: { member_guid: nullable('string'), user_guid: nullable('string'), connection_status: nullable('string'), updated_at: epochSeconds },
  },
  transaction_notification: {
    type: 'object',
    properties: { member_guid: nullable('string'), transaction_guid: nullable('string'), transacted_at: epochSeconds, posted_on: date },
  },
  verification: {
    type: 'object',
    properties: { member_guid: nullable('string'), accounts: { type: ['array', 'null'], items: { type: 'object' } } },
  },
};

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined; // external refs: leave the schema open
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
  }
  return node;
}

/** Inlines local $refs; a cycle or an unresolvable ref becomes an open schema `{}`. */
export function derefSchema(doc: unknown, schema: unknown, seen: string[] = []): JsonSchema {
  if (Array.isArray(schema)) return schema.map((s) => derefSchema(doc, s, seen)) as unknown as JsonSchema;
  if (!schema || typeof schema !== 'object') return schema as JsonSchema;
  const s = schema as JsonSchema;
  if (typeof s.$ref === 'string') {
    if (seen.includes(s.$ref)) return {};
    const target = resolvePointer(doc, s.$ref);
    if (target === undefined) return {};
    const { $ref: _ignored, ...rest } = s;
    return { ...derefSchema(doc, target, [...seen, s.$ref]), ...derefSchema(doc, rest, seen) };
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) out[k] = typeof v === 'object' && v !== null ? derefSchema(doc, v, seen) : v;
  return out;
}

export interface WebhookSchemaSet {
  source: 'spec' | 'fixture';
  schemas: Record<string, JsonSchema>;
}

/** Reads the platform document's webhooks section, or the fixture when it is absent. */
export function loadWebhookSchemas(file = PLATFORM_DOCUMENT): WebhookSchemaSet {
  if (!existsSync(file)) return { source: 'fixture', schemas: FIXTURE_WEBHOOK_SCHEMAS };
  let doc: { webhooks?: Record<string, unknown> };
  try {
    doc = parse(readFileSync(file, 'utf8')) as typeof doc;
  } catch {
    // A document that does not parse is spec/'s lint failure to report, not ours.
    return { source: 'fixture', schemas: FIXTURE_WEBHOOK_SCHEMAS };
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const [type, item] of Object.entries(doc.webhooks ?? {})) {
    const resolvedItem = derefSchema(doc, item) as Record<string, any>;
    const schema = resolvedItem?.post?.requestBody?.content?.['application/json']?.schema;
    if (schema && typeof schema === 'object') schemas[type] = schema as JsonSchema;
  }
  if (Object.keys(schemas).length === 0) return { source: 'fixture', schemas: FIXTURE_WEBHOOK_SCHEMAS };
  return { source: 'spec', schemas };
}
