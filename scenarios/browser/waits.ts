/**
 * How the browser scenarios wait for what a page does after an action: a widget event, a
 * postMessage, a redirect (for speed: waits that return as soon as the condition
 * holds, bounded by the profile, never fixed sleeps).
 *
 * The bound is profile.timeouts.browserEventMs (SVC_BROWSER_EVENT_TIMEOUT_MS): a real
 * target's is its request timeout unless set; the embedded simulator's is short, since its
 * pages act at once. It is also what a scenario waits when the event never comes, which is
 * what a fault that leaves an event out costs.
 *
 * The condition of a poll is read from memory (messages and navigations recorded by the
 * scenario), so it is checked every 50 ms rather than on expect.poll's default back-off
 * (100, 250, 500, then every 1000 ms), which adds up to a second after the event came.
 */
import type { TargetProfile } from '../../targets/index.ts';

/** expect.poll options for what a page does after an action. */
export function afterAction(profile: TargetProfile, message: string, intervalMs = 50): { message: string; timeout: number; intervals: number[] } {
  return { message, timeout: profile.timeouts.browserEventMs, intervals: [intervalMs] };
}

/**
 * Resources, Member: oauth_window_uri "begins without the protocol prefix being added by
 * the client (the service supplies it)"; OAuth procedure 2: it "must not be ... given a
 * protocol prefix by the client". A URI the browser can load as given is absolute, with
 * a host. Checked before loading it, so a URI without one fails at once rather than as a
 * window that never shows the authorization page.
 */
export function suppliesProtocol(uri: unknown): boolean {
  return typeof uri === 'string' && URL.canParse(uri) && new URL(uri).host !== '';
}
