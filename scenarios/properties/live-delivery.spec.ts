/**
 * Webhook deliveries of a real service (specification, Events,
 * Webhooks rules 1, 3, 4, 5, 7, 8, 9 and "The service sends HTTPS POST requests").
 *
 * delivery.spec.ts checks the simulator's own dispatcher, which it can steer. A real
 * service delivers to the URLs its client configured "out of band" (Events), so here
 * the user gives the public URL the service delivers to (SVC_WEBHOOK_PUBLIC_URL, e.g.
 * a tunnel) and the address it forwards to (SVC_WEBHOOK_LISTEN). The test starts a
 * capture there (answering 204, "204 is recommended", rule 4), TRIGGERS deliveries
 * through the platform API with the checked client (create a user, create a member on
 * the test institution with the success password and X-CALLBACK-PAYLOAD, update it,
 * aggregate it; test webhooks only when SVC_WEBHOOK_TEST_URL says how), waits a
 * bounded time (SVC_WEBHOOK_WAIT_MS) and checks every delivery that arrived.
 *
 * No delivery at all: a failure only when the user asserts the service is configured
 * to deliver here (SVC_WEBHOOK_EXPECT=1). Otherwise a skip saying so: configuration
 * is done out of band, so the suite cannot tell a service that sent nothing from one
 * that was never told this URL, and a failure would blame the service for the setup.
 *
 * Each rule that could not be observed in this run (no delivery of that kind arrived,
 * HTTPS behind a plain-http loopback URL, retries without SVC_WEBHOOK_FAIL_FIRST) is
 * reported as a `not verified` annotation, never counted as a pass; each rule checked
 * on at least one delivery is a `verified` annotation. Settings: README.md, "Webhook
 * deliveries of a real service".
 */
import { boundsOf, requestBounded, type TargetProfile } from '../../targets/index.ts';
import { test, expect, noteFailures, type CheckedClient, type Poll } from '../fixtures.ts';
import { formatFailure } from '../../contracts/index.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { createMember } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { CaptureReceiver, type CapturedRequest } from './harness/capture.ts';
import {
  checkLiveDeliveries,
  deliveriesByType,
  failFirstAnswer,
  liveDeliverySettings,
  testWebhookArrived,
  waitForDeliveries,
  type LiveDeliverySettings,
  type LiveRun,
  type Note,
} from './harness/live-delivery.ts';

const TAGS = ['@webhooks', '@delivery', '@live', '@destructive'];

test('live delivery: webhooks the target sends for a member created, updated and aggregated pass the delivery rules', { tag: TAGS }, async ({
  api,
  poll,
  profile,
}) => {
  const parsed = liveDeliverySettings(profile.webhookCapture, profile);
  test.skip(!!parsed.skip, parsed.skip);
  if (parsed.error) throw new Error(parsed.error);
  const s = parsed.settings!;
  test.setTimeout(s.waitMs + 4 * profile.timeouts.aggregationMs + 60_000);
  const note: Note = (type, description) => test.info().annotations.push({ type, description });

  const capture = new CaptureReceiver(s.failFirst ? { answer: failFirstAnswer() } : {});
  await capture.start(s.port, s.host);
  try {
    const t = await triggerDeliveries(api, poll, profile, s, note);
    const concerns = (r: CapturedRequest) => r.body.includes(t.memberGuid) || r.body.includes(t.userGuid);
    const waitedMs = await waitForDeliveries(capture, s, concerns, t.testTypesAsked);
    const memberRead = await readMemberState(api, t);
    const rs = [...capture.requests];
    const ours = rs.filter(concerns);
    const where = `SVC_WEBHOOK_PUBLIC_URL=${s.publicUrl.href} (capture on ${s.host}:${s.port})`;
    skipOrFailWhenNothingCame(rs, ours, t, s, where, waitedMs);

    const failures = checkLiveDeliveries(
      {
        settings: s,
        requests: rs,
        memberGuid: t.memberGuid,
        user: { guid: t.userGuid, id: t.userId },
        memberRead,
        callbackPayload: t.callbackPayload,
        testTypesAsked: t.testTypesAsked,
        testArrived: (type) => testWebhookArrived(capture.requests, type),
        where,
        waitedMs,
        strict: profile.strict,
      },
      note,
    );
    note(
      'deliveries',
      `${rs.length} requests (${ours.length} about the member created), ${new Set(rs.map((r) => r.body.toString('base64'))).size} distinct payloads, types: ${[...deliveriesByType(rs)].map(([type, l]) => `${type}×${l.length}`).join(', ')}; waited ${waitedMs} ms; triggered: ${t.triggered.join('; ')}`,
    );
    // Every finding is an annotation named by its tier, as the checked client writes them;
    // only errors fail (enum growth and inferred misses outside strict mode never do).
    noteFailures(test.info(), failures);
    expect(
      failures.filter((f) => f.severity === 'error').map(formatFailure),
      `delivery checks on ${rs.length} webhook request(s) received at ${where}`,
    ).toEqual([]);
  } finally {
    await capture.stop();
  }
});

/** What the trigger did: the objects it created, the payload it sent, the test webhooks it asked for. */
interface Triggered {
  userGuid: string;
  /** The `id` the run gave the user (Resources: "Clients are advised to set their own id"). */
  userId: string;
  memberGuid: string;
  callbackPayload: string;
  /** Each trigger and its answer, for messages. */
  triggered: string[];
  testTypesAsked: string[];
}

/**
 * Makes the target send webhooks through the platform API (Endpoints, Members: X-CALLBACK-PAYLOAD
 * on create, update, aggregate): a user, a member on the test institution, its update,
 * aggregation and verification; test webhooks only where SVC_WEBHOOK_TEST_URL says how.
 */
async function triggerDeliveries(api: CheckedClient, poll: Poll, profile: TargetProfile, s: LiveDeliverySettings, note: Note): Promise<Triggered> {
  const triggered: string[] = [];
  const callbackPayload = uniqueId('live-cb');
  const headers = { 'X-CALLBACK-PAYLOAD': callbackPayload };
  const userId = uniqueId('live-user');
  const userGuid = await createUser(api, { id: userId });
  triggered.push(`create user ${userGuid}`);
  const created = await createMember(api, userGuid, { scenario: 'SUCCESS', headers });
  const memberGuid = created.body.member.guid as string;
  triggered.push(`create member ${memberGuid} (X-CALLBACK-PAYLOAD)`);
  await waitUntilSettled(api, poll, userGuid, memberGuid);
  const base = `/users/${userGuid}/members/${memberGuid}`;
  await api.put(base, { member: { metadata: 'updated by the live delivery check' } }, { headers, expectStatus: [200, 202] });
  triggered.push('update member (X-CALLBACK-PAYLOAD)');
  // The aggregate may be refused by the throttle (Limits: "aggregation throttle"; its
  // status is not shown): it is a trigger here, its answer is only recorded.
  const aggregate = await api.post(`${base}/aggregate`, undefined, { headers });
  triggered.push(`aggregate member (X-CALLBACK-PAYLOAD) → ${aggregate.status}`);
  await waitUntilSettled(api, poll, userGuid, memberGuid);
  // A verification of the member, for rule 9's verification payload ("include an
  // accounts field"). Its status is not shown and the target may refuse it (a product
  // the client lacks): a trigger, its answer only recorded.
  const verify = await api.post(`${base}/verify`, undefined, { headers });
  triggered.push(`verify member (X-CALLBACK-PAYLOAD) → ${verify.status}`);
  if (verify.status >= 200 && verify.status < 300) await waitUntilSettled(api, poll, userGuid, memberGuid);
  const testTypesAsked = await askForTestWebhooks(profile, s, note);
  if (testTypesAsked) triggered.push(`test webhooks asked at SVC_WEBHOOK_TEST_URL: ${testTypesAsked.join(', ')}`);
  return { userGuid, userId, memberGuid, callbackPayload, triggered, testTypesAsked: testTypesAsked ?? [] };
}

/**
 * The member once the wait for its deliveries ended, for the state its latest webhook
 * leaves a receiver with; undefined when the read is refused (the check then says why).
 */
async function readMemberState(api: CheckedClient, t: Triggered): Promise<LiveRun['memberRead']> {
  const res = await api.get(`/users/${t.userGuid}/members/${t.memberGuid}`);
  const member = res.status === 200 ? (res.body?.member as Record<string, unknown> | undefined) : undefined;
  return member ? { connection_status: member.connection_status, is_being_aggregated: member.is_being_aggregated } : undefined;
}

/**
 * Rule 7: "type-specific test webhooks are generated by the vendor on request": how is not
 * shown, so only a URL the user names asks for them. The types asked for, or undefined without one.
 */
async function askForTestWebhooks(profile: TargetProfile, s: LiveDeliverySettings, note: Note): Promise<string[] | undefined> {
  if (!s.testUrl) {
    note(
      'not verified',
      'Events rule 7 on requested test webhooks: how to request one is not shown (Events: "generated by the vendor on request"); set SVC_WEBHOOK_TEST_URL (POST {"type": T} asks the target for a test webhook of type T) to check them; test webhooks that arrive anyway are checked',
    );
    return undefined;
  }
  const asked: string[] = [];
  for (const type of s.testTypes) {
    const res = await requestBounded(
      {
        method: 'POST',
        url: s.testUrl,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type }),
        urlSetting: 'SVC_WEBHOOK_TEST_URL',
      },
      boundsOf(profile),
    );
    if (res.status < 200 || res.status > 299)
      throw new Error(`SVC_WEBHOOK_TEST_URL ${s.testUrl} answered ${res.status} to {"type":"${type}"}: ${res.text.slice(0, 200)}`);
    asked.push(type);
  }
  return asked;
}

/**
 * No delivery at all: a skip that says what to configure, or a failure when SVC_WEBHOOK_EXPECT=1
 * says the service delivers here; none about the run's objects: a failure under SVC_WEBHOOK_EXPECT=1.
 */
function skipOrFailWhenNothingCame(
  rs: CapturedRequest[],
  ours: CapturedRequest[],
  t: Triggered,
  s: LiveDeliverySettings,
  where: string,
  waitedMs: number,
): void {
  if (rs.length === 0) {
    const what = `No webhook arrived at ${where} within ${waitedMs} ms (SVC_WEBHOOK_WAIT_MS) after: ${t.triggered.join('; ')}`;
    if (s.expect)
      throw new Error(
        `${what}. SVC_WEBHOOK_EXPECT=1 says the service delivers there (Events, Webhooks: "The service sends HTTPS POST requests with a JSON body to a URL chosen by the client").`,
      );
    test.skip(
      true,
      `${what}. Webhook URLs are configured out of band (Events: "Configuration is done out of band"): configure ${s.publicUrl.href} at the vendor and set SVC_WEBHOOK_EXPECT=1 to make a silent service a failure`,
    );
  }
  if (ours.length === 0 && s.expect)
    throw new Error(
      `${rs.length} webhook(s) arrived at ${where} within ${waitedMs} ms, none about user ${t.userGuid} or member ${t.memberGuid} after: ${t.triggered.join('; ')}`,
    );
}
