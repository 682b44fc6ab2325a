/**
 * The OAuth window of an OAuth member (Endpoints, "OAuth procedure for members"; Limits,
 * `oauth_window_uri` single use; States and transitions, OAuth outcome). The pages that
 * show it and the redirect after the decision are routes/oauth.ts.
 */
import { randomBytes } from 'node:crypto';
import type { SimContext } from '../context.ts';
import type { MemberRecord } from './records.ts';
import { coreState } from './store.ts';
import { emitMember, setStatus } from './events.ts';
import { startJob } from './aggregation.ts';

export interface OauthWindow {
  token: string;
  memberGuid: string;
  used: boolean;
  session: string | null;
  decided: boolean;
}

const windows = (ctx: SimContext) => ctx.collection<OauthWindow>('oauth_windows');

/** Issues a fresh single-use oauth_window_uri for the member (the old one stops working). */
export function issueOauthWindow(ctx: SimContext, m: MemberRecord, baseUrl: string): string {
  if (m.oauthToken) windows(ctx).delete(m.oauthToken);
  const token = randomBytes(16).toString('hex');
  windows(ctx).set(token, { token, memberGuid: m.guid, used: false, session: null, decided: false });
  m.oauthToken = token;
  const uri = `${baseUrl}/_sim/oauth/${token}`;
  m.oauthWindowUri = ctx.fault('oauth-uri-without-protocol') ? uri.replace(/^[a-z]+:\/\//i, '') : uri;
  return m.oauthWindowUri;
}

/** The window of a token with its member, or undefined when either is gone. */
export function oauthWindowOf(ctx: SimContext, token: string): { w: OauthWindow; m: MemberRecord } | undefined {
  const w = windows(ctx).get(token);
  const m = w && coreState(ctx).members.get(w.memberGuid);
  return w && m ? { w, m } : undefined;
}

/**
 * Loads the window: Limits, "oauth_window_uri is single use" (fault oauth-uri-reusable).
 * Answers the session of the page, or undefined when the URI was used already.
 */
export function openOauthWindow(ctx: SimContext, w: OauthWindow): string | undefined {
  if (w.used && !ctx.fault('oauth-uri-reusable')) return undefined;
  w.used = true;
  w.session = randomBytes(12).toString('hex');
  return w.session;
}

export type OauthErrorReason = 'CANCELLED' | 'DENIED' | 'IMPEDED' | 'PROVIDER_ERROR' | 'SERVER_ERROR' | 'SESSION_ERROR';

/**
 * The user's decision on the window. Authorize: the member connects and aggregates (OAuth
 * procedure 4: aggregation starts after a successful OAuth connection). Deny: DENIED with
 * error_reason DENIED; cancel: DENIED with CANCELLED.
 */
export function decideOauth(
  ctx: SimContext,
  w: OauthWindow,
  m: MemberRecord,
  action: 'authorize' | 'deny' | 'cancel',
): { status: 'success' | 'error'; reason?: OauthErrorReason } {
  w.decided = true;
  if (action === 'authorize' || ctx.fault('oauth-deny-connects')) {
    m.mfaPassed = true;
    startJob(ctx, m, 'aggregation');
    return { status: 'success' };
  }
  setStatus(ctx, m, 'DENIED');
  m.is_being_aggregated = false;
  emitMember(ctx, m, 'updated');
  return { status: 'error', reason: action === 'deny' ? 'DENIED' : 'CANCELLED' };
}
