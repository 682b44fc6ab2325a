/**
 * Secret redaction for everything the suites write (reports, attachments, logs).
 *
 * Developers' guide, Standards: "Secrets (API keys, client secrets, tokens, Basic
 * credentials) never land in a report, log or commit". The specification's
 * Authentication section names every kind of credential this removes:
 *   1. Basic `<CLIENT_ID>:<API_KEY>` on platform endpoints,
 *   3. `SVC-3DX-TOKEN: <DATA_EXCHANGE_TOKEN>` on data-exchange reads,
 *   4. processor authorization codes and `access_token` values,
 *   5. the audience `client_secret` and `Authorization: Bearer <ACCESS_TOKEN>`,
 * plus the test host's `SVC-API-Key` header (Endpoints, "Earlier-generation test paths").
 *
 * Three layers, so a secret is caught even where no rule names it:
 *   - header names that always carry credentials are blanked whatever their value;
 *   - JSON keys that always carry credentials are blanked wherever they appear;
 *   - every known secret value (profile credentials, and tokens learned at run time
 *     with `add()`) is replaced wherever it appears in any text, and `Basic …` /
 *     `Bearer …` credentials are replaced in free text.
 */
export const REDACTED = '[REDACTED]';

/** Headers whose value is a credential, compared lower-case. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'svc-3dx-token', 'svc-api-key', 'x-api-key', 'cookie', 'set-cookie']);

/** JSON keys whose string value is a credential, compared lower-case. */
const SECRET_KEYS = new Set([
  'api_key',
  'apikey',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'password',
  'secret',
  'authorization_code',
]);

/** `Basic <base64>` / `Bearer <token>` anywhere in free text (logs, error messages). */
const SCHEME_CREDENTIAL = /\b(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
/**
 * Credentials passed in a URL or a form body (`?access_token=…&client_secret=…`): a form body
 * (the audience token request, Authentication 5) begins with its first pair, so a pair at
 * the start of a line or of a quoted string counts as well as one after `?`, `&` or `;`.
 */
const QUERY_CREDENTIAL = /((?:^|[?&;"'])(?:access_token|client_secret|api_key|token|password|code)=)[^&#\s"']+/gim;

export interface Redactor {
  /** Registers a secret learned at run time (a data-exchange token, an access token). */
  add(secret: string | undefined): void;
  text(value: string): string;
  headers(headers: Record<string, string | string[] | undefined>): Record<string, string>;
  /** A deep copy of a JSON value with credential keys and known secret values removed. */
  json<T>(value: T): T;
}

/** Secrets shorter than this are replaced as whole tokens only (see createRedactor). */
const WHOLE_TOKEN_BELOW = 16;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * @param secrets known secret values, e.g. `profileSecrets(profile)`; values shorter
 *   than 4 characters are ignored (they would blank ordinary words).
 */
export function createRedactor(secrets: readonly (string | undefined)[] = []): Redactor {
  const known = new Set<string>();
  let pattern: RegExp | undefined;
  const rebuild = () => {
    // Longest first so a secret that contains another is replaced whole. A short secret is
    // replaced only where it stands as a token of its own: a test password or key that is a
    // common word ("wrong") must not be blanked out of the target's own messages ("wrong
    // credentials"); a long one is replaced wherever it appears.
    const list = [...known]
      .sort((a, b) => b.length - a.length)
      .map((s) => (s.length < WHOLE_TOKEN_BELOW ? `(?<![A-Za-z0-9])${escapeRegExp(s)}(?![A-Za-z0-9])` : escapeRegExp(s)));
    pattern = list.length ? new RegExp(list.join('|'), 'g') : undefined;
  };
  const add = (s: string | undefined) => {
    if (typeof s !== 'string' || s.length < 4 || known.has(s)) return;
    known.add(s);
    // A Basic header carries the secret base64-encoded; a URL carries it percent-encoded; a
    // JSON string (a trace's network log, a serialized request body) carries it escaped.
    const encoded = encodeURIComponent(s);
    if (encoded !== s) known.add(encoded);
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) known.add(escaped);
    rebuild();
  };
  secrets.forEach(add);

  const text = (value: string): string => {
    let out = value.replace(SCHEME_CREDENTIAL, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    out = out.replace(QUERY_CREDENTIAL, (_m, prefix: string) => `${prefix}${REDACTED}`);
    if (pattern) out = out.replace(pattern, REDACTED);
    return out;
  };

  const json = <T>(value: T): T => {
    // Inside an object named like a credential (`authorization_code: {code: ...}`), its
    // `code` is the credential itself (Authentication 4).
    const walk = (v: unknown, key?: string, parent?: string): unknown => {
      const secretKey =
        key !== undefined && (SECRET_KEYS.has(key.toLowerCase()) || (key === 'code' && parent !== undefined && SECRET_KEYS.has(parent.toLowerCase())));
      if (secretKey && (typeof v === 'string' || typeof v === 'number')) return REDACTED;
      if (typeof v === 'string') return text(v);
      if (Array.isArray(v)) return v.map((x) => walk(x, undefined, key));
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x, k, key);
        return out;
      }
      return v;
    };
    return walk(value) as T;
  };

  const headers = (h: Record<string, string | string[] | undefined>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(h)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      if (SECRET_HEADERS.has(name.toLowerCase())) {
        // Keep the scheme word: whether Basic or Bearer was sent is useful, the credential is not.
        const scheme = /^(Basic|Bearer)\s/i.exec(value)?.[1];
        out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else {
        out[name] = text(value);
      }
    }
    return out;
  };

  return { add, text, headers, json };
}
