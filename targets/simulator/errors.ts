/**
 * One table of the simulator's error codes, and the one error body it answers with.
 *
 * The specification does not show the shape of error bodies (Errors: "Shape of error
 * response bodies: not shown"), so this shape is the simulator's own, documented in the
 * README; the suite's contract keeps error bodies open and never fails a real target
 * on this shape.
 *
 *   { "error": { "status": 400, "code": "invalid_json", "message": "..." } }
 */
import type { FastifyReply } from 'fastify';

export const ERROR_CODES = {
  invalid_json: { status: 400, title: 'The request body is not valid JSON' },
  invalid_request: { status: 400, title: 'A request field is missing or has the wrong type or format' },
  invalid_paging: { status: 400, title: 'page and records_per_page must be positive integers' },
  unknown_version: { status: 400, title: 'Accept-Version names no version this service knows' },
  unauthorized: { status: 401, title: 'Missing or wrong credentials' },
  forbidden: { status: 403, title: 'The credentials do not allow this request' },
  not_found: { status: 404, title: 'No such resource' },
  method_not_allowed: { status: 405, title: 'Method not allowed on this path' },
  conflict: { status: 409, title: 'Another job is running for this member' },
  version_sunset: { status: 410, title: 'This API version has reached sunset' },
  endpoint_sunset: { status: 410, title: 'This endpoint has reached sunset' },
  not_acceptable: { status: 406, title: 'None of the media types in Accept can be served' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  unprocessable: { status: 422, title: 'The request is well-formed but cannot be processed' },
  rate_limited: { status: 429, title: 'Too many requests: the rate limit is exceeded' },
  aggregation_throttled: { status: 429, title: 'A standard aggregation ran recently: the throttle period has not ended (Limits, aggregation throttle)' },
  internal: { status: 500, title: 'Internal error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  error: { status: number; code: ErrorCode; message: string };
}

export function errorBody(code: ErrorCode, message?: string): ErrorBody {
  const entry = ERROR_CODES[code];
  return { error: { status: entry.status, code, message: message ?? entry.title } };
}

export function sendError(reply: FastifyReply, code: ErrorCode, message?: string): FastifyReply {
  const body = errorBody(code, message);
  return reply.code(body.error.status).type('application/json; charset=utf-8').send(body);
}

/** Thrown inside handlers to answer an error without branching at every call site. */
export class SimError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
  ) {
    super(message ?? ERROR_CODES[code].title);
  }
}
