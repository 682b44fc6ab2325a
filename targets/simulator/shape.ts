/**
 * Shape-only catalogue entries: faults and variations that change nothing but the shape of a
 * JSON body (a field added, removed, renamed, retyped; keys reordered; a value re-encoded).
 * One table, one walker, applied in one function: routes never see them.
 *
 * Where each is applied (`scope`):
 *   response      every JSON response of the platform API (variations.ts, onSend hook);
 *   upgrade       responses under the newest version only (upgrade.ts: institutions and
 *                 credentials, what the version-diff check reads);
 *   webhook       every webhook payload the dispatcher renders (webhooks/dispatcher.ts).
 * Behavioural faults (a status, a refusal, a state) stay inline in the routes, typed by
 * `FaultName`.
 */
import type { SimContext } from './context.ts';
import type { FaultName, VariationName } from './catalog.ts';

type JsonObject = Record<string, unknown>;

/** The one JSON walker: rebuilds every object bottom-up (children first) through `visit`. */
function mapObjects(value: unknown, visit: (o: JsonObject) => JsonObject): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, visit));
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as JsonObject)) out[k] = mapObjects(v, visit);
    return visit(out);
  }
  return value;
}

export type ShapeScope = 'response' | 'upgrade' | 'webhook';

interface ShapeEdit {
  scope: ShapeScope;
  /** The object edit; children are already edited. */
  edit: (o: JsonObject) => JsonObject;
}

const reversed = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).reverse());
const isInstitution = (o: JsonObject) => typeof o.code === 'string' && typeof o.guid === 'string' && String(o.guid).startsWith('INS-');
const onInstitution = (edit: (o: JsonObject) => JsonObject) => (o: JsonObject) => (isInstitution(o) ? edit(o) : o);

const prefixed = (o: JsonObject, prefix: string) => typeof o.guid === 'string' && o.guid.startsWith(prefix);
/** Fields the vendor reference's examples do not carry, by the record that names them. */
function withoutReferenceAbsentFields(o: JsonObject): JsonObject {
  const drop = (...fields: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !fields.includes(k)));
  if (isInstitution(o)) return drop('status', 'client_status');
  if (prefixed(o, 'ACT-')) return drop('hold_total', 'pending_transactions_total');
  if (prefixed(o, 'TRN-')) return drop('top_level_category_guid');
  if ('micro_call_to_action' in o) return drop('has_associated_repeating_transactions');
  return o;
}

/**
 * The table. Order matters only within a scope and follows the table (a field is added
 * after the keys are reordered, so it comes last).
 */
const SHAPE_EDITS: Partial<Record<FaultName | VariationName, ShapeEdit>> = {
  // Versioning, non-breaking: "reordering response properties", "adding response data elements".
  'reordered-properties': { scope: 'response', edit: reversed },
  'added-response-fields': { scope: 'response', edit: (o) => ({ ...o, sim_added_field: 'added by the added-response-fields variation' }) },
  // real-service-notes, Nullability: "Absence follows the same rule as null".
  'null-fields-omitted': { scope: 'response', edit: (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) },
  // real-service-notes, Nullability: what the vendor's own examples leave out.
  'reference-example-shapes': { scope: 'response', edit: withoutReferenceAbsentFields },
  // Versioning, breaking 5/7/6 (faults) and non-breaking 4/6 (variations), newest version only.
  'upgrade-removes-field': { scope: 'upgrade', edit: onInstitution(({ instructional_text: _removed, ...rest }) => rest) },
  'upgrade-renames-field': {
    scope: 'upgrade',
    edit: onInstitution((o) => {
      if (!('name' in o)) return o;
      const { name, ...rest } = o;
      return { ...rest, display_name: name };
    }),
  },
  'upgrade-changes-field-type': {
    scope: 'upgrade',
    edit: onInstitution((o) => (typeof o.is_hidden === 'boolean' ? { ...o, is_hidden: String(o.is_hidden) } : o)),
  },
  'upgrade-adds-field': { scope: 'upgrade', edit: onInstitution((o) => ({ ...o, upgrade_added_field: 'added by the upgrade-adds-field variation' })) },
  'upgrade-reorders-properties': { scope: 'upgrade', edit: onInstitution(reversed) },
  // Credentials' field type: the PASSWORD value is replaced by a new one (an enum value removed).
  'upgrade-removes-enum-value': { scope: 'upgrade', edit: (o) => (o.type === 'PASSWORD' && typeof o.field_name === 'string' ? { ...o, type: 'SECRET' } : o) },
  // Events rule 1: `_at` fields are Unix seconds, `_on` fields are dates.
  'webhook-at-in-milliseconds': {
    scope: 'webhook',
    edit: (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k.endsWith('_at') && typeof v === 'number' ? v * 1000 + 123 : v])),
  },
  'webhook-on-field-datetime': {
    scope: 'webhook',
    edit: (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k.endsWith('_on') && typeof v === 'string' ? `${v}T00:00:00Z` : v])),
  },
  // Events rule 2: fields may be added at any time; field order is not fixed.
  'webhook-reordered-fields': { scope: 'webhook', edit: reversed },
  'webhook-added-fields': { scope: 'webhook', edit: (o) => ({ ...o, sim_added_field: 'added by a variation' }) },
};

/** The shape entries of `scope` in force in `ctx` (faults and variations alike). */
export function shapeEditsInForce(ctx: SimContext, scope: ShapeScope): ((o: JsonObject) => JsonObject)[] {
  return Object.entries(SHAPE_EDITS)
    .filter(([name, e]) => e!.scope === scope && (ctx.faults.has(name) || ctx.variations.has(name)))
    .map(([, e]) => e!.edit);
}

/** Applies the edits in one walk; the value itself when none is in force. */
export function applyShapeEdits(value: unknown, edits: readonly ((o: JsonObject) => JsonObject)[]): unknown {
  if (edits.length === 0) return value;
  return mapObjects(value, (o) => edits.reduce((acc, edit) => edit(acc), o));
}
