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
import { boundsOf, requestBounded } from '../../targets/index.ts';
import { test, expect, noteFailures } from '../fixtures.ts';
import { formatFailure, type Failure, loadContract, parseBody, webhook_field_formats, webhook_json_post, webhook_test_shape } from '../../contracts/index.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { createMember } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { CaptureReceiver, type CapturedRequest } from './lib/capture.ts';
import {
  awaitingRetry,
  deliveryType,
  failFirstAnswer,
  liveCallbackPayload,
  liveDeliverySettings,
  liveHttps,
  livePlatformTypes,
  liveRetries,
  liveRule9,
  liveVersionRises,
} from './lib/live-delivery.ts';

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
  const note = (type: string, description: string) => test.info().annotations.push({ type, description });

  const capture = new CaptureReceiver(s.failFirst ? { answer: failFirstAnswer() } : {});
  await capture.start(s.port, s.host);
  const triggered: string[] = [];
  let memberGuid = '';
  let userGuid = '';
  const callbackPayload = uniqueId('live-cb');
  const testTypesAsked: string[] = [];
  try {
    // ---- trigger (Endpoints, Members: X-CALLBACK-PAYLOAD on create, update, aggregate) ----
    const headers = { 'X-CALLBACK-PAYLOAD': callbackPayload };
    userGuid = await createUser(api);
    triggered.push(`create user ${userGuid}`);
    const created = await createMember(api, userGuid, { scenario: 'SUCCESS', headers });
    memberGuid = created.body.member.guid as string;
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
    // Rule 7: "type-specific test webhooks are generated by the vendor on request": how
    // is not shown, so only a URL the user names asks for them.
    if (s.testUrl) {
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
        testTypesAsked.push(type);
      }
      triggered.push(`test webhooks asked at SVC_WEBHOOK_TEST_URL: ${testTypesAsked.join(', ')}`);
    } else {
      note(
        'not verified',
        'Events rule 7 on requested test webhooks: how to request one is not shown (Events: "generated by the vendor on request"); set SVC_WEBHOOK_TEST_URL (POST {"type": T} asks the target for a test webhook of type T) to check them; test webhooks that arrive anyway are checked',
      );
    }

    // ---- wait, bounded ----
    const concerns = (r: CapturedRequest) => r.body.includes(memberGuid) || r.body.includes(userGuid);
    const testArrived = (t: string) => capture.requests.some((r) => deliveryType(r) === t && parseBody(r)?.action === 'test');
    const started = performance.now();
    const deadline = started + s.waitMs;
    for (;;) {
      const now = performance.now();
      if (now >= deadline) break;
      const last = capture.requests.at(-1)?.atMs ?? 0;
      const complete = capture.requests.some(concerns) && awaitingRetry(capture.requests).length === 0 && testTypesAsked.every(testArrived);
      if (complete && now - last >= s.quietMs) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const waitedMs = Math.round(performance.now() - started);
    const rs = [...capture.requests];
    const ours = rs.filter(concerns);
    const where = `SVC_WEBHOOK_PUBLIC_URL=${s.publicUrl.href} (capture on ${s.host}:${s.port})`;
    if (rs.length === 0) {
      const what = `No webhook arrived at ${where} within ${waitedMs} ms (SVC_WEBHOOK_WAIT_MS) after: ${triggered.join('; ')}`;
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
        `${rs.length} webhook(s) arrived at ${where} within ${waitedMs} ms, none about user ${userGuid} or member ${memberGuid} after: ${triggered.join('; ')}`,
      );

    // ---- check every delivery that arrived ----
    const failures: Failure[] = [];
    const verified = (rule: string, n: number, why: string) =>
      n > 0 ? note('verified', `${rule} (${n} deliveries)`) : note('not verified', `${rule}: ${why}`);
    const byType = new Map<string, CapturedRequest[]>();
    for (const r of rs) byType.set(deliveryType(r) ?? 'unknown', [...(byType.get(deliveryType(r) ?? 'unknown') ?? []), r]);
    const contract = loadContract();
    let contractChecked = 0;
    for (const [type, list] of byType) {
      failures.push(...webhook_json_post(type, list), ...webhook_field_formats(type, list));
      if (type === 'unknown') continue;
      for (const r of list) {
        const body = parseBody(r);
        if (!body) continue;
        contractChecked++;
        failures.push(...contract.checkWebhook(type, body));
      }
    }
    verified('Events, Webhooks: HTTPS POST requests with a JSON body', rs.length, 'no delivery');
    verified('Events rule 1: _at epoch seconds, _on YYYY-MM-DD', rs.length, 'no delivery');
    verified('spec/platform.openapi.yaml webhooks: the payload schema of the type', contractChecked, 'no delivery whose type could be told');
    const unknown = byType.get('unknown') ?? [];
    if (unknown.length)
      note(
        'not verified',
        `${unknown.length} delivery(ies) whose type could not be told (path ${unknown[0].path}, no object named for a type): give the service one URL per type ending in the type name (e.g. ${s.publicUrl.href.replace(/\/$/, '')}/member) to have them checked against their type`,
      );

    const versions = liveVersionRises(rs);
    failures.push(...versions);
    const memberDeliveries = rs.filter((r) => deliveryType(r) === 'member' && parseBody(r)?.action !== 'test').length;
    verified('Events rule 3: member webhooks carry a version that rises with each update', memberDeliveries, 'no member webhook arrived');

    const cb = liveCallbackPayload(rs, memberGuid, callbackPayload);
    failures.push(...cb.failures);
    verified(
      'Events rule 8: X-CALLBACK-PAYLOAD appears in the member and member data updated webhooks',
      cb.checked,
      `no member or member_data_updated webhook about member ${memberGuid} arrived`,
    );

    const r9 = liveRule9(rs);
    failures.push(...r9.failures);
    verified(
      'Events rule 9: member, aggregation, notification and verification payload fields',
      r9.checked,
      'no member, aggregation, notification or verification webhook arrived',
    );

    // Events: "For platform clients only these types are available": which kind of client
    // the credentials belong to is the user's to say (SVC_WEBHOOK_PLATFORM_CLIENT=1).
    if (s.platformClient) {
      const platform = livePlatformTypes(rs);
      failures.push(...platform.failures);
      verified(
        'Events, Webhooks: a platform client receives only aggregation, balance, connection status, history, insights and statements webhooks',
        platform.checked,
        'no delivery whose type could be told',
      );
    } else {
      note(
        'not verified',
        'Events, Webhooks: "For platform clients only these types are available": set SVC_WEBHOOK_PLATFORM_CLIENT=1 when the credentials are a platform client\'s to check it',
      );
    }

    const tests = rs.filter((r) => parseBody(r)?.action === 'test');
    for (const [type, list] of byType)
      failures.push(
        ...webhook_test_shape(
          type,
          list.filter((r) => parseBody(r)?.action === 'test'),
        ),
      );
    for (const t of testTypesAsked) {
      if (!testArrived(t))
        failures.push({
          check: 'webhook_delivered',
          operation: `WEBHOOK ${t}`,
          location: 'capture',
          rule: 'Events, Webhooks rule 7: type-specific test webhooks are generated by the vendor on request',
          severity: 'error',
          message: `A test webhook of type ${t} was requested at SVC_WEBHOOK_TEST_URL (answered 2xx) and no delivery of type ${t} with action "test" arrived at ${where} within ${waitedMs} ms (${(byType.get(t) ?? []).filter((r) => !r.body.includes(memberGuid)).length} other delivery(ies) of that type, not about the member created)`,
        });
    }
    if (s.testUrl || tests.length)
      verified('Events rule 7: test webhooks have action test, an object named for the type, and version', tests.length, 'no test webhook arrived');

    if (s.failFirst) {
      const retries = liveRetries(rs, { strict: profile.strict, waitMs: s.waitMs });
      failures.push(...retries.failures);
      verified(
        'Events rules 4-5: a delivery answered 503 is retried with an identical payload, at most 12 times',
        retries.retried,
        `${retries.failed} delivery(ies) answered 503, none retried within the wait`,
      );
    } else {
      note(
        'not verified',
        "Events rules 4-5 (retries): the capture answered 204 to everything; set SVC_WEBHOOK_FAIL_FIRST=1 to answer 503 to the first delivery of each object and watch the retry (rule 5's example schedule puts retry 1 at 30 s: keep SVC_WEBHOOK_WAIT_MS above it)",
      );
    }

    if (s.https) {
      failures.push(...liveHttps(rs));
      verified('Events, Webhooks: the service sends HTTPS POST requests (the deliveries came through the https public URL)', rs.length, 'no delivery');
    } else {
      note(
        'not verified',
        `Events, Webhooks: "The service sends HTTPS POST requests": SVC_WEBHOOK_PUBLIC_URL is plain http (${s.publicUrl.href}), accepted only because the target is on this machine; give an https URL to verify it`,
      );
    }

    note(
      'deliveries',
      `${rs.length} requests (${ours.length} about the member created), ${new Set(rs.map((r) => r.body.toString('base64'))).size} distinct payloads, types: ${[...byType].map(([t, l]) => `${t}×${l.length}`).join(', ')}; waited ${waitedMs} ms; triggered: ${triggered.join('; ')}`,
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
