/**
 * Request readers every route module shares: body field readers that refuse a wrong type
 * with `invalid_request`, the data_request of v20250224, and the headers of Events rule 8.
 * The records and the store they feed are ../domain.
 */
import type { FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import type { FaultName } from '../catalog.ts';
import { SimError } from '../errors.ts';
import { V2025 } from '../domain/records.ts';

// ---- request bodies ---------------------------------------------------------------------

type Obj = Record<string, unknown>;

export function optString(o: Obj, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new SimError('invalid_request', `${where}.${key} must be a string, got ${typeof v}`);
  return v;
}

export function optBool(o: Obj, key: string, where: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new SimError('invalid_request', `${where}.${key} must be a boolean, got ${typeof v}`);
  return v;
}

export function optNumber(o: Obj, key: string, where: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SimError('invalid_request', `${where}.${key} must be a number, got ${typeof v}`);
  return v;
}

export function optStringArray(o: Obj, key: string, where: string): string[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new SimError('invalid_request', `${where}.${key} must be an array of strings`);
  return v as string[];
}

export function optObject(o: Obj, key: string, where: string): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new SimError('invalid_request', `${where}.${key} must be an object`);
  return v as Obj;
}

/** Metadata is a string (Resources, Member); objects are stored as their JSON text. */
export function optMetadata(o: Obj, where: string): string | undefined {
  const v = o.metadata;
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'object') {
    try {
      return JSON.stringify(v);
    } catch {
      // Nested past the engine's stack (a RangeError): bad input, a 4xx like any other.
      throw new SimError('invalid_request', `${where}.metadata is nested too deep to store`);
    }
  }
  throw new SimError('invalid_request', `${where}.metadata must be a string`);
}

/**
 * Versioning, "Changes in v20250224": create member and request widget URL take a
 * required `data_request` with a `products` array.
 */
export function dataRequestProducts(ctx: SimContext, o: Obj, where: string, version: string, faultName: FaultName): string[] | undefined {
  const dr = optObject(o, 'data_request', where);
  // Versioning, changes in v20250224: a required data_request. Variation
  // data-request-optional-on-v20260929: no sentence states it for v20260929, and "making a
  // required parameter optional" is non-breaking.
  const required = version >= V2025 && !ctx.fault(faultName) && !(version >= 'v20260929' && ctx.variation('data-request-optional-on-v20260929'));
  if (!dr) {
    if (required)
      throw new SimError(
        'invalid_request',
        `${where}.data_request is required from version ${V2025}: send {"data_request": {"products": ["transactions", ...]}}`,
      );
    return undefined;
  }
  const products = optStringArray(dr, 'products', `${where}.data_request`);
  if (!products && required) throw new SimError('invalid_request', `${where}.data_request.products must be an array of product names from version ${V2025}`);
  return products;
}

// ---- headers -----------------------------------------------------------------------------

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Events, rule 8: X-CALLBACK-PAYLOAD on create, update, aggregate or verify member and widget URL request. */
export function callbackPayloadOf(request: FastifyRequest): string | undefined {
  const v = header(request, 'x-callback-payload');
  return v === undefined || v === '' ? undefined : v;
}

/** Events, rule 8: SVC-SKIP-WEBHOOK on create, update and delete. Any value but `false`/`0` skips. */
export function skipWebhookOf(request: FastifyRequest): boolean {
  const v = header(request, 'svc-skip-webhook');
  if (v === undefined) return false;
  return !/^(false|0)$/i.test(v.trim());
}

export function baseUrlOf(request: FastifyRequest): string {
  const host = header(request, 'host') ?? '127.0.0.1';
  return `${request.protocol}://${host}`;
}
