/**
 * Insights (specification, Resources "Insight": `cta_clicked_at` settable on update; an
 * opt-in `localization_payload` object requested with `?includes=localization_payload`,
 * supported templates BillAmountNotStandard, MonthlySubscriptionAggregateV2,
 * SubscriptionPriceIncrease). Insights are "derived from a user's transaction history",
 * so each scenario connects a member of its own first.
 *
 * The list path of a user's insights is not shown (the read and update paths are); the
 * format of `cta_clicked_at` is not shown either: the scenario sends an ISO 8601
 * timestamp, the form of the resources' `_at` fields, and compares instants.
 */
import { test, expect } from '../fixtures.ts';
import { ANY_2XX, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, walkList } from './journeys.ts';
import { inconclusive } from './jobs.ts';

const TAGS = ['@accounts', '@insights', '@destructive'];
const LOCALIZED_TEMPLATES = ['BillAmountNotStandard', 'MonthlySubscriptionAggregateV2', 'SubscriptionPriceIncrease'];

type Insight = { guid: string; cta_clicked_at?: unknown; localization_payload?: unknown; [k: string]: unknown };

async function insightsOf(api: Parameters<typeof walkList>[0], user: string, profile: { isSimulator: boolean }) {
  const insights = await walkList<Insight>(api, `/users/${user}/insights`, 'insights');
  if (insights.length === 0 && !profile.isSimulator)
    test.skip(true, 'the test user has no insights on this target yet, so the insight rules cannot be observed');
  expect(insights.length, 'insights derived from the aggregated transactions').toBeGreaterThan(0);
  return insights;
}

test('cta_clicked_at set on update reads back', { tag: TAGS }, async ({ api, poll, profile }) => {
  const { user } = await connectedUser(api, poll);
  const [insight] = await insightsOf(api, user, profile);
  const clicked = '2025-03-01T12:00:00Z';
  // Endpoints: "PUT /users/{user_guid}/insights/{insight_guid} (accepts cta_clicked_at)"; status not shown: any 2xx.
  await api.put(`/users/${user}/insights/${insight.guid}`, { insight: { cta_clicked_at: clicked } }, { expectStatus: ANY_2XX });
  const read = await api.get(`/users/${user}/insights/${insight.guid}`, { expectStatus: 200 });
  // Resources, Insight: "cta_clicked_at (settable on update)": the value set reads back.
  const stored = need<Record<string, unknown>>(read, 'insight', api).cta_clicked_at;
  expect(stored, 'cta_clicked_at after the update').toBeTruthy();
  const instant = typeof stored === 'number' ? stored * 1000 : Date.parse(String(stored));
  expect(instant, `cta_clicked_at ${JSON.stringify(stored)} is the instant sent`).toBe(Date.parse(clicked));
});

test('localization_payload is opt-in with includes=localization_payload', { tag: TAGS }, async ({ api, poll, profile }) => {
  const { user } = await connectedUser(api, poll);
  const insights = await insightsOf(api, user, profile);
  const localized = insights.filter((i) => LOCALIZED_TEMPLATES.some((t) => JSON.stringify(i).includes(t)));
  if (localized.length === 0 && !profile.isSimulator)
    test.skip(true, 'no insight of a template that supports localization_payload for the test user on this target');
  expect(localized.length, 'insights of a template that supports localization_payload').toBeGreaterThan(0);
  // Resources, Insight: "an opt-in localization_payload object requested with ?includes=localization_payload".
  for (const i of localized) {
    const plain = await api.get(`/users/${user}/insights/${i.guid}`, { expectStatus: 200 });
    expect(plain.body.insight?.localization_payload ?? null, `localization_payload of insight ${i.guid} without includes (opt-in)`).toBeNull();
    const opted = await api.get(`/users/${user}/insights/${i.guid}`, { query: { includes: 'localization_payload' }, expectStatus: 200 });
    const payload = opted.body.insight?.localization_payload;
    expect(payload && typeof payload === 'object', `localization_payload object of insight ${i.guid} with includes=localization_payload`).toBe(true);
  }
});

/**
 * Resources, Insight: "Fields named: has_associated_repeating_transactions,
 * cta_clicked_at (settable on update), micro_call_to_action". Endpoints: "GET
 * /users/{user_identifier}/insights/{insight_guid}/repeating_transactions". The read's
 * body is not shown (a list of repeating transactions, Errors: 200 for reads and lists).
 * That an insight with associated repeating transactions lists at least one, and one
 * without lists none, is the plain reading of the flag but not stated: inferred. The
 * path names a `user_identifier`: the user's guid is sent (stated); the partner id
 * (the user's `id`, "partner-defined" in Data exchange's words) is tried as inferred.
 */
test('insights carry the named fields and list their repeating transactions', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user } = await connectedUser(api, poll);
  const insights = await insightsOf(api, user, profile);
  // Resources, Insight: "Fields named: ..." is a list of names, not a presence guarantee.
  const missing = insights
    .filter((i) => !['has_associated_repeating_transactions', 'cta_clicked_at', 'micro_call_to_action'].every((f) => f in i))
    .map((i) => i.guid);
  // "Fields named: ..." is a list of names, not a presence promise: the vendor's own insights
  // carry no has_associated_repeating_transactions (real-service-notes, Nullability). Inferred.
  expectInferred(profile, missing.length === 0, {
    expectation: 'insights carry has_associated_repeating_transactions, cta_clicked_at and micro_call_to_action',
    basis: 'Resources, Insight names the fields without saying they are always present',
    received: `${missing.length} of ${insights.length} insights without one of them (${missing.slice(0, 3).join(', ')})`,
  });
  const repeatingOf = async (identifier: string, insight: string, strict = true) => {
    const res = await api.get(`/users/${encodeURIComponent(identifier)}/insights/${insight}/repeating_transactions`, strict ? { expectStatus: 200 } : {});
    return res.status === 200 ? need<Array<{ guid: string }>>(res, 'repeating_transactions', api) : undefined;
  };
  const withRepeating = insights.find((i) => i.has_associated_repeating_transactions === true);
  const without = insights.find((i) => i.has_associated_repeating_transactions === false);
  // The read is stated for any insight (Endpoints); what the flag says about its content is
  // inferred, and judged only where an insight carries the flag (it is named, not promised).
  const subject = withRepeating ?? insights[0];
  if (!subject) inconclusive('the connected test user has no insight: no insight guid to read repeating transactions for');
  const listed = (await repeatingOf(user, subject.guid))!;
  if (withRepeating)
    expectInferred(profile, listed.length > 0, {
      expectation: `insight ${withRepeating.guid} (has_associated_repeating_transactions true) lists its repeating transactions`,
      basis: 'Resources, Insight: has_associated_repeating_transactions; the content of the repeating_transactions read is not shown',
      received: `${listed.length} repeating transactions`,
    });
  else
    test.info().annotations.push({
      type: 'not verified',
      description: 'no insight carries has_associated_repeating_transactions true: what the flag says about the repeating transactions read is not judged',
    });
  if (without) {
    const none = (await repeatingOf(user, without.guid))!;
    expectInferred(profile, none.length === 0, {
      expectation: `insight ${without.guid} (has_associated_repeating_transactions false) lists no repeating transactions`,
      basis: 'Resources, Insight: has_associated_repeating_transactions; the content of the repeating_transactions read is not shown',
      received: `${none.length} repeating transactions`,
    });
  }
  const partnerId = (await api.get(`/users/${user}`, { expectStatus: 200 })).body?.user?.id;
  if (typeof partnerId === 'string' && partnerId) {
    const byId = await repeatingOf(partnerId, subject.guid, false);
    expectInferred(profile, byId !== undefined && byId.length === listed.length, {
      expectation: "the repeating_transactions read takes the user's partner-defined id as user_identifier",
      basis: 'Endpoints: the path names {user_identifier}; which identifiers it accepts is stated only for data exchange paths',
      received: byId === undefined ? 'not 200' : `${byId.length} vs ${listed.length}`,
    });
  }
});

/**
 * What the service does: "Insights are personalised items derived from a user's
 * transaction history." A new user with no member has no history, so nothing to derive
 * an insight from; after a successful aggregation the user has insights on the simulator
 * (a real target may take longer to derive them: there it is not asserted). That the
 * list is empty before any history is the reading of "derived from", not a stated rule:
 * inferred.
 */
test('a user without transaction history has no insights', { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
  const user = await createUser(api);
  const insights = await walkList<Insight>(api, `/users/${user}/insights`, 'insights');
  expectInferred(profile, insights.length === 0, {
    expectation: 'a user with no member and no transactions lists no insights',
    basis: 'What the service does: insights are "derived from a user\'s transaction history"',
    received: `${insights.length} insights: ${insights
      .map((i) => i.guid)
      .slice(0, 3)
      .join(', ')}`,
  });
});
