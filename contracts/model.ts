/**
 * One loaded document (an API, and for the platform API one version): its operations
 * read once into flat records and a matcher from concrete request paths to path
 * templates. Plain data: validators are compiled by the contract (compile.ts, Validators).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { DisplayName, SchemaAt } from './compile.ts';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiName, follow, pointerOf } from './load.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface DocumentedHeader {
  name: string;
  lower: string;
  required: boolean;
}

export interface DocumentedMedia extends SchemaAt {
  /** Lower-case media type as written in the document, e.g. `application/json`. */
  type: string;
  isJson: boolean;
}

export interface DocumentedResponse {
  /** `200`, `4XX` or `default`. */
  status: string;
  /**
   * `x-svc-unstated-success` (spec/CONVENTIONS.md): a documented 2xx that the Errors table
   * does not state (e.g. create member 200/202 from the vendor's reference, widget URL 200),
   * with the reason. Such a response does not make the operation's success status stated.
   */
  unstatedSuccess?: string;
  headers: DocumentedHeader[];
  media: DocumentedMedia[];
}

export interface MediaSelection {
  /** The received media type: lower case, no parameters. */
  received?: string;
  media?: DocumentedMedia;
  /** False when only a JSON-family type matched a documented JSON type, or nothing matched. */
  exact: boolean;
}

/**
 * What of an operation its `x-svc-not-shown` says the specification does not show
 * (spec/CONVENTIONS.md): the one reader of that prose, so each use asks for a part by name
 * and every use reads the same words the same way.
 */
export interface NotShown {
  /** Its path ("path ...", "platform path ...", "path and method"): its path parameters state nothing. */
  path: boolean;
  /** Its request or payload: its body's fields state nothing. */
  request: boolean;
  /** Its method, or how it is called. */
  method: boolean;
  /** The name of one of its query parameters. */
  queryParameter: boolean;
  /** It belongs to "the other product areas" (Endpoints: their paths and payloads are not shown). */
  otherProductArea: boolean;
}

export function notShownOf(operation: unknown): NotShown {
  const said = (operation as Record<string, unknown> | null | undefined)?.['x-svc-not-shown'];
  const text = typeof said === 'string' ? said : '';
  return {
    path: /^(platform )?path\b/.test(text) || /\bpath and method\b/.test(text),
    request: /\b(request|payload)/.test(text),
    method: /method/i.test(text),
    queryParameter: /query parameter/i.test(text),
    otherProductArea: /other product areas/.test(text),
  };
}

export interface OperationInfo {
  api: ApiName;
  /** The document's version (platform derived documents), else undefined. */
  version?: string;
  method: string;
  /** Path template as in the document, e.g. `/users/{user_guid}/members`. */
  path: string;
  /** `GET /institutions`: the `operation` of every Failure. */
  key: string;
  operationId?: string;
  operation: OpenAPIV3_1.OperationObject;
  deprecated: boolean;
  /** `x-svc-sunset`: requests must answer an error (Versioning). */
  sunset: boolean;
  /** `x-svc-list-key`: the body property that holds the page's records. */
  listKey?: string;
  /** `x-svc-max-records-per-page` (Limits). */
  maxRecordsPerPage?: number;
  responses: Map<string, DocumentedResponse>;
  /** Documented statuses in document order, for messages. */
  documentedStatuses: string[];
  /**
   * Matching: literal segments or parameter names; a parameter may end in a literal suffix
   * (`{statement_guid}.pdf`, a file name in one segment).
   */
  segments: { literal?: string; param?: string; suffix?: string }[];
  /**
   * The success statuses the operation states (`200`, `201`, `2XX`, in document order).
   * When there is one, `default` no longer covers a 2xx (see documentedResponse).
   */
  successStatuses: string[];
  /**
   * The success statuses the specification states (Errors table): `successStatuses` without
   * those marked `x-svc-unstated-success`. Where there is one, an unlisted 2xx fails (stated);
   * where there is none, an unlisted 2xx is informational.
   */
  statedSuccessStatuses: string[];
}

export interface OperationMatch {
  operation: OperationInfo;
  /** Path parameter values, URL-decoded. */
  params: Readonly<Record<string, string>>;
}

export interface WebhookInfo extends SchemaAt {
  type: string;
}

function isJsonMedia(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json') || type === '*/*';
}

function splitPath(path: string): string[] {
  const parts = path.split('/');
  return parts.filter((p, i) => p !== '' || i === parts.length - 1).filter((p) => p !== '');
}

export class DocumentModel {
  readonly operations: OperationInfo[] = [];
  readonly webhooks = new Map<string, WebhookInfo>();
  /** Operations by method, most specific (most literal segments) first. */
  private readonly byMethod = new Map<string, OperationInfo[]>();
  /**
   * The vendor JSON media types the document names (`info.x-svc-legacy-accept.media_types`),
   * lower case: content_type_conformance lets them pass (Authentication 2).
   */
  readonly legacyJsonTypes: ReadonlySet<string>;
  /** Reference problems found while reading (reported by tests, never thrown). */
  readonly problems: string[] = [];

  constructor(
    readonly api: ApiName,
    readonly version: string | undefined,
    readonly uri: string,
    readonly doc: OpenAPIV3_1.Document,
    /** spec/ (or a fixture copy): rules name documents relative to it. */
    readonly specDir?: string,
  ) {
    this.readOperations();
    this.readWebhooks();
    const listed = (doc.info as any)?.['x-svc-legacy-accept']?.media_types;
    this.legacyJsonTypes = new Set(Array.isArray(listed) ? listed.map((t: unknown) => String(t).toLowerCase()) : []);
  }

  /** A file URI as a failure rule names it: relative to spec/, e.g. `versions/platform.v20250224.openapi.yaml`. */
  readonly displayName: DisplayName = (uri) => {
    let file: string;
    try {
      file = fileURLToPath(uri);
    } catch {
      return uri;
    }
    const rel = this.specDir ? relative(this.specDir, file) : '';
    return (rel && !rel.startsWith('..') ? rel : file.slice(file.lastIndexOf(sep) + 1)).split(sep).join('/');
  };

  private readOperations(): void {
    const paths = (this.doc.paths ?? {}) as Record<string, any>;
    for (const [path, rawItem] of Object.entries(paths)) {
      const item = follow<any>(rawItem, this.uri, pointerOf(['paths', path]));
      if (!item?.value) {
        this.problems.push(`unresolved path item ${path}`);
        continue;
      }
      for (const method of METHODS) {
        const op = item.value[method];
        if (!op || typeof op !== 'object') continue;
        const opPointer = `${item.pointer}/${method}`;
        const info: OperationInfo = {
          api: this.api,
          version: this.version,
          method: method.toUpperCase(),
          path,
          key: `${method.toUpperCase()} ${path}`,
          operationId: op.operationId,
          operation: op,
          deprecated: op.deprecated === true,
          sunset: op['x-svc-sunset'] === true,
          listKey: typeof op['x-svc-list-key'] === 'string' ? op['x-svc-list-key'] : undefined,
          maxRecordsPerPage: typeof op['x-svc-max-records-per-page'] === 'number' ? op['x-svc-max-records-per-page'] : undefined,
          responses: new Map(),
          documentedStatuses: [],
          successStatuses: [],
          statedSuccessStatuses: [],
          segments: splitPath(path).map((s) => {
            const m = /^\{([^}]+)\}([^{}]*)$/.exec(s);
            return m ? { param: m[1], ...(m[2] ? { suffix: m[2] } : {}) } : { literal: s };
          }),
        };
        for (const [status, rawResponse] of Object.entries((op.responses ?? {}) as Record<string, unknown>)) {
          const located = follow<any>(rawResponse, item.uri, `${opPointer}/responses/${status}`);
          if (!located?.value) {
            this.problems.push(`${info.key}: unresolved response ${status}`);
            continue;
          }
          info.responses.set(
            status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(),
            this.readResponse(status, located.value, located.uri, located.pointer, info.key),
          );
          info.documentedStatuses.push(status);
          if (/^2(\d\d|XX)$/i.test(status)) {
            info.successStatuses.push(status);
            if (typeof located.value['x-svc-unstated-success'] !== 'string') info.statedSuccessStatuses.push(status);
          }
        }
        this.operations.push(info);
      }
    }
    for (const op of this.operations) {
      let list = this.byMethod.get(op.method);
      if (!list) this.byMethod.set(op.method, (list = []));
      list.push(op);
    }
    // A literal segment wins over a parameter at the same place (OpenAPI: "concrete
    // paths are matched before templated ones"), and a parameter with a literal suffix
    // over a bare one, so sort by literal-first specificity.
    const rank = (seg: { literal?: string; suffix?: string }) => (seg.literal !== undefined ? 0 : seg.suffix ? 1 : 2);
    for (const list of this.byMethod.values()) {
      list.sort((a, b) => {
        const n = Math.min(a.segments.length, b.segments.length);
        for (let i = 0; i < n; i++) {
          const ra = rank(a.segments[i]),
            rb = rank(b.segments[i]);
          if (ra !== rb) return ra - rb;
        }
        return 0;
      });
    }
  }

  private readResponse(status: string, response: any, uri: string, pointer: string, key: string): DocumentedResponse {
    const headers: DocumentedHeader[] = [];
    for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
      const h = follow<any>(rawHeader, uri, `${pointer}/headers/${pointerOf([name]).slice(1)}`);
      if (!h?.value) {
        this.problems.push(`${key}: unresolved header ${name} of ${status}`);
        continue;
      }
      headers.push({ name, lower: name.toLowerCase(), required: h.value.required === true });
    }
    const media: DocumentedMedia[] = [];
    for (const [type, mediaObject] of Object.entries((response.content ?? {}) as Record<string, any>)) {
      const lower = type.toLowerCase();
      const hasSchema = mediaObject && typeof mediaObject === 'object' && mediaObject.schema !== undefined;
      media.push({
        type: lower,
        isJson: isJsonMedia(lower),
        schemaUri: hasSchema ? uri : undefined,
        schemaPointer: hasSchema ? `${pointer}${pointerOf(['content', type, 'schema'])}` : undefined,
      });
    }
    const unstated = response['x-svc-unstated-success'];
    return { status, headers, media, ...(typeof unstated === 'string' ? { unstatedSuccess: unstated } : {}) };
  }

  private readWebhooks(): void {
    const hooks = ((this.doc as any).webhooks ?? {}) as Record<string, unknown>;
    for (const [type, rawItem] of Object.entries(hooks)) {
      const item = follow<any>(rawItem, this.uri, pointerOf(['webhooks', type]));
      const post = item?.value?.post;
      const body = post ? follow<any>(post.requestBody, item!.uri, `${item!.pointer}/post/requestBody`) : undefined;
      const json = body?.value?.content?.['application/json'];
      this.webhooks.set(
        type,
        json && json.schema !== undefined
          ? { type, schemaUri: body!.uri, schemaPointer: `${body!.pointer}${pointerOf(['content', 'application/json', 'schema'])}` }
          : { type },
      );
    }
  }

  /** Concrete path (no query) -> operation and parameters. */
  match(method: string, path: string): OperationMatch | undefined {
    const candidates = this.byMethod.get(method.toUpperCase());
    if (!candidates) return undefined;
    const parts = splitPath(path);
    for (const op of candidates) {
      if (op.segments.length !== parts.length) continue;
      let params: Record<string, string> | undefined;
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = op.segments[i];
        if (seg.literal !== undefined) {
          if (seg.literal !== parts[i]) {
            ok = false;
            break;
          }
        } else {
          let value = parts[i];
          if (seg.suffix) {
            if (!value.endsWith(seg.suffix) || value.length === seg.suffix.length) {
              ok = false;
              break;
            }
            value = value.slice(0, -seg.suffix.length);
          }
          try {
            value = decodeURIComponent(value);
          } catch {
            /* keep it raw */
          }
          (params ??= {})[seg.param!] = value;
        }
      }
      if (ok) return { operation: op, params: Object.freeze(params ?? {}) };
    }
    return undefined;
  }

  findByKey(method: string, pathTemplate: string): OperationInfo | undefined {
    const upper = method.toUpperCase();
    return this.operations.find((o) => o.method === upper && o.path === pathTemplate);
  }
}

/**
 * Documented response for a status: exact code, then `4XX`-style range, then `default`.
 * `default` stands for "Error codes per endpoint beyond those in the table: not shown"
 * (Errors; spec/README.md, "Statuses"): it covers the statuses the table does not state,
 * not another success code. An unlisted 2xx:
 *   - where the operation states a success status (e.g. 200 for reads, 201 for the data
 *     exchange token, 200 for ACH return creation): undocumented (status check: stated);
 *   - where it documents only unstated 2xx (x-svc-unstated-success: create member before
 *     v20250224, widget URL, identify): the first documented 2xx, so its body is still
 *     checked against that schema (status check: informational);
 *   - where it documents no 2xx: `default`.
 */
export function documentedResponse(op: OperationInfo, status: number): DocumentedResponse | undefined {
  const stated = op.responses.get(String(status)) ?? op.responses.get(`${Math.floor(status / 100)}XX`);
  if (stated) return stated;
  if (status >= 200 && status < 300 && op.successStatuses.length > 0) {
    if (op.statedSuccessStatuses.length > 0) return undefined;
    return op.responses.get(op.successStatuses[0].toUpperCase());
  }
  return op.responses.get('default');
}

/**
 * The documented media type that a received media type (lower case, no parameters)
 * selects: exact, then a wildcard, then a JSON-family type for a documented JSON one.
 */
export function documentedMedia(response: DocumentedResponse, received: string | undefined): MediaSelection {
  const list = response.media;
  if (list.length === 0) return { received, exact: true };
  if (received) {
    for (const m of list) if (m.type === received) return { received, media: m, exact: true };
    const slash = received.indexOf('/');
    const family = slash > 0 ? `${received.slice(0, slash)}/*` : '';
    for (const m of list) if (m.type === family || m.type === '*/*') return { received, media: m, exact: true };
    if (isJsonMedia(received)) for (const m of list) if (m.isJson) return { received, media: m, exact: false };
    return { received, exact: false };
  }
  return { received, media: list.find((m) => m.isJson) ?? list[0], exact: false };
}
