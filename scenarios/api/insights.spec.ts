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
import { ANY_2XX, need } from '../helpers.ts';
import { connectedUser, walkList } from './journeys.ts';

const TAGS = ['@accounts', '@insights', '@destructive'];
const LOCALIZED_TEMPLATES = ['BillAmountNotStandard', 'MonthlySubscriptionAggregateV2', 'SubscriptionPriceIncrease'];

type Insight = { guid: string; cta_clicked_at?: unknown; localization_payload?: unknown; [k: string]: unknown };

async function insightsOf(api: Parameters<typeof walkList>[0], user: string, profile: { isSimulator: boolean }) {
  const insights = await walkList<Insight>(api, `/users/${user}/insights`, 'insights');
  if (insights.length === 0 && !profile.isSimulator) test.skip(true, 'the test user has no insights on this target yet, so the insight rules cannot be observed');
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
  if (localized.length === 0 && !profile.isSimulator) test.skip(true, 'no insight of a template that supports localization_payload for the test user on this target');
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
