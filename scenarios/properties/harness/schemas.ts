/**
 * The webhook payload schemas the generators are derived from: the `webhooks` section
 * of spec/platform.openapi.yaml (spec/CONVENTIONS.md: `webhooks.<type>.post.
 * requestBody.content.application/json.schema`), read by the contract's document reader
 * (contracts/load.ts) with every `$ref` inlined, since a generator needs plain schemas.
 */
import { inlineRefs, loadDocument } from '../../../contracts/index.ts';

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

export interface WebhookSchemaSet {
  /** The document read (the platform source document: it carries every version's webhooks). */
  file: string;
  schemas: Record<string, JsonSchema>;
}

/** The platform document's webhook schemas by type; throws when it has none (generators would have nothing to draw from). */
export function loadWebhookSchemas(specDir?: string): WebhookSchemaSet {
  const { file, uri, doc } = loadDocument('platform', undefined, specDir);
  const schemas: Record<string, JsonSchema> = {};
  for (const [type, item] of Object.entries((doc as { webhooks?: Record<string, unknown> }).webhooks ?? {})) {
    const resolvedItem = inlineRefs(item, uri) as Record<string, any>;
    const schema = resolvedItem?.post?.requestBody?.content?.['application/json']?.schema;
    if (schema && typeof schema === 'object') schemas[type] = schema as JsonSchema;
  }
  if (Object.keys(schemas).length === 0)
    throw new Error(`${file}: no webhook payload schema (webhooks.<type>.post.requestBody.content.application/json.schema, spec/CONVENTIONS.md)`);
  return { file, schemas };
}
