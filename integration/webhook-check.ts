/**
 * The team's webhook handler against the receiver-side properties of the Events section
 * (../shared/DESIGN.md, "What it is for" 1: "does the team's own webhook handler cope with
 * what the service sends?"). It reuses the project's receiver property suites as they are
 * (scenarios/properties/receiver-responses, receiver-state, receiver-model: fast-check
 * properties, shrunk counterexamples, the project's reporters: console, HTML, JUnit), run
 * by Playwright against the team's URL (WEBHOOK_RECEIVER_URL) instead of the reference
 * receiver:
 *
 *   unknown fields, nulls, any order, unknown types get a 2xx          rules 2, 4, 6
 *   a body that is not JSON gets a 2xx or a 4xx, never a 5xx           rule 6
 *   a retry with the same payload (a duplicate) gets a 2xx             rules 4, 6
 *   and so does one that comes late, after other deliveries            rules 5, 6
 *   late and out-of-order deliveries get a 2xx                         rules 3, 6
 *   every answer within the bound ("answer quickly"; the bound is a setting)  rule 6
 * and, when the handler offers the observation API (targets/receiver/README.md) at
 * --observe-url: a duplicate is processed once (a late one too), the highest version is stored whatever
 * the order, and a model-based sequence of deliveries, retries and malformed bodies.
 *
 * Before any property runs, one bounded request to each URL (`unanswered`): a handler that
 * is not running, or a URL that names no host, is a setting to correct (exit 2, the URL
 * and the cause named), not a property that fails on a random counterexample.
 */
import { join } from 'node:path';
import {
  boundsOf,
  exchangeBounded,
  isObservationCounts,
  missingObservationCounts,
  loadProfile,
  notObservationApi,
  OBSERVATION_COUNTS_PATH,
  PACKAGE_ROOT,
  playwrightTest,
  runChild,
  runProcess,
  type HttpBounds,
} from '../targets/index.ts';
import { IntegrationInputError } from './har.ts';

type Env = Record<string, string | undefined>;

const RECEIVER_SUITES = [
  'scenarios/properties/receiver-responses.spec.ts',
  'scenarios/properties/receiver-state.spec.ts',
  'scenarios/properties/receiver-model.spec.ts',
];

export const WEBHOOK_PROPERTIES: ReadonlyArray<{ property: string; rules: string; needsObservation?: boolean }> = [
  { property: 'every valid payload (nulls, unknown fields, any order, unknown types) gets a 2xx', rules: 'Events rules 2, 4, 6' },
  { property: 'a body that is not valid JSON gets a 2xx or a 4xx, never a 5xx', rules: 'Events rule 6' },
  { property: 'every answer comes within the bound (--bound-ms)', rules: 'Events rule 6, "answer quickly" (the bound is a setting)' },
  { property: 'a retry with the same payload (a duplicate) gets a 2xx; with the observation API it is processed once', rules: 'Events rules 4, 6' },
  { property: 'late and out-of-order deliveries get a 2xx; with the observation API the highest version is stored', rules: 'Events rules 3, 6' },
  {
    property:
      'a retry that comes late (--late-retry-ms after the first, --late-retry-between other deliveries between) gets a 2xx; with the observation API it is processed once',
    rules: 'Events rules 5, 6 (retries over about 24 hours; how late is a setting)',
  },
  { property: 'a random sequence of deliveries, retries and malformed bodies matches the model', rules: 'Events rules 3, 4, 6', needsObservation: true },
];

export interface WebhookCheckOptions {
  /** The team's webhook URL; `{type}` in it is replaced by the webhook type. */
  url: string;
  /** Its observation API, if it offers one. */
  observeUrl?: string;
  /** Cases per property (default 200). */
  runs?: number;
  /** Answer bound in ms (default 1000). */
  boundMs?: number;
  /** How late the late retry comes (scenarios/properties/harness/client.ts PROPERTY_SETTINGS.lateRetry: 30 s, 500 between). */
  lateRetryMs?: number;
  lateRetryBetween?: number;
  seed?: number;
  /** Report folder (Playwright's HTML, JUnit, summary.md). */
  out: string;
  /** Settings (config file and environment). */
  env: Env;
  /**
   * Called once every URL answered, before the properties run: what the command announces
   * (the properties) then follows the cause when nothing answers, instead of preceding it.
   */
  onReachable?: () => void;
  /**
   * Keep Playwright's console output instead of showing it (the project's tests), bounded
   * by this many ms; it is returned as `output`.
   */
  captureWithinMs?: number;
}

function httpUrl(name: string, raw: string): string {
  try {
    if (/^https?:$/.test(new URL(raw.replace(/\{type\}/g, 'member')).protocol)) return raw;
  } catch {
    /* below */
  }
  throw new IntegrationInputError(`${name} must be an http(s) URL, got "${raw}"`);
}

/**
 * One bounded GET to the URL: the transport's one-line cause (connection refused, DNS,
 * timeout) when nothing answers, else undefined. Any answer, a 404 or 405 to a GET included,
 * shows that something listens; what it answers to deliveries is for the properties.
 */
export async function unanswered(option: string, url: string, bounds: HttpBounds): Promise<string | undefined> {
  const res = await exchangeBounded({ method: 'GET', url: url.replace(/\{type\}/g, 'member'), urlSetting: option }, bounds);
  // A failure after the status line arrived (a body above the bound) still came from a listening handler.
  return res.kind === 'failed' && res.failure.status === undefined ? res.failure.message : undefined;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs the receiver property suites against the team's URL; resolves with Playwright's exit code (and its output when captured). */
export async function runWebhookCheck(o: WebhookCheckOptions): Promise<{ code: number; output?: string }> {
  const url = httpUrl('--url', o.url);
  // The counts are read below it (OBSERVATION_COUNTS_PATH), so one trailing slash is dropped.
  const observeUrl = o.observeUrl ? httpUrl('--observe-url', o.observeUrl).replace(/\/$/, '') : undefined;
  // The settings' bound of one request (SVC_REQUEST_TIMEOUT_MS); the answer's body is not needed.
  const bounds: HttpBounds = { ...boundsOf(loadProfile(o.env)), maxBodyBytes: 64 * 1024, maxBodyBytesFrom: "webhook-check's reachability request" };
  for (const [option, target] of [['--url', url], ...(observeUrl ? [['--observe-url', observeUrl]] : [])] as const) {
    const cause = await unanswered(option, target, bounds);
    if (cause)
      throw new IntegrationInputError(
        `nothing answers at ${option} ${target}, so no property was run: ${cause} Start the handler there, or correct ${option}.`,
      );
  }
  if (observeUrl) {
    // The stored-state properties read the counts below it: a base URL that is not an
    // observation API's would fail them as a receiver that lost deliveries.
    const counts = await exchangeBounded({ method: 'GET', url: `${observeUrl}${OBSERVATION_COUNTS_PATH}`, urlSetting: '--observe-url' }, bounds);
    if (counts.kind === 'failed')
      throw new IntegrationInputError(`the observation API's counts at --observe-url ${observeUrl} did not answer: ${counts.failure.message}`);
    const body = parsedOrUndefined(counts.text);
    if (counts.status !== 200 || !isObservationCounts(body))
      throw new IntegrationInputError(notObservationApi('--observe-url', observeUrl, counts.status, counts.text, missingObservationCounts(body)));
  }
  o.onReachable?.();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  // The properties need no platform: the run's global setup then starts the embedded
  // simulator, instead of checking a configured real target's credentials.
  delete env.SVC_BASE_URL;
  env.WEBHOOK_RECEIVER_URL = url;
  if (observeUrl) env.WEBHOOK_OBSERVE_URL = observeUrl;
  else delete env.WEBHOOK_OBSERVE_URL;
  env.WEBHOOK_PROPERTY_RUNS = String(o.runs ?? 200);
  env.WEBHOOK_RESPONSE_BOUND_MS = String(o.boundMs ?? 1000);
  if (o.seed !== undefined) env.WEBHOOK_PROPERTY_SEED = String(o.seed);
  if (o.lateRetryMs !== undefined) env.WEBHOOK_LATE_RETRY_MS = String(o.lateRetryMs);
  if (o.lateRetryBetween !== undefined) env.WEBHOOK_LATE_RETRY_BETWEEN = String(o.lateRetryBetween);
  env.SVC_REPORTS_OUT = o.out;
  const files = RECEIVER_SUITES.map((f) => join(PACKAGE_ROOT, f));
  const run = playwrightTest(['--project', 'properties', '--workers', '1', ...files], env, PACKAGE_ROOT);
  if (o.captureWithinMs === undefined) return { code: await runChild(run) };
  const done = await runProcess(run.command, run.args, { cwd: run.cwd, env: run.env, timeoutMs: o.captureWithinMs });
  return { code: done.timedOut ? 1 : (done.code ?? 1), output: `${done.stdout}${done.stderr}` };
}
