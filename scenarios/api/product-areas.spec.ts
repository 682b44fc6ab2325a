/**
 * Product areas whose rules the specification states but whose paths it does not show
 * (What the service does; Endpoints: "Paths and payloads of the other product areas
 * listed under What the service does: not shown"): notifications, goals, budgets,
 * statements, tags and taggings, holdings.
 *
 * Paths come from the target profile (profile.productPaths; documented defaults in
 * targets/profiles/settings.ts, PRODUCT_PATH_DEFAULTS, which the simulator serves). On a
 * real target a path is used only when its SVC_PATH_* variable is set; otherwise the
 * scenario skips and names the variable.
 *
 * Field names: "Field lists of budgets, goals, tags, taggings, ... notifications ...
 * statements, holdings ...: not shown". The scenarios assert only what a sentence
 * names: `guid` ("Other resources also have a guid"), a notification's `type` and
 * `channel`, a goal's `track_type_name` and `meta_type_name`, a budget's
 * `category_guid`. Where a rule names no field (a tagging's transaction, a statement's
 * PDF), it is checked through values (identifiers anywhere in the record) or the media
 * type. Request shapes are not shown either: each create sends a wrapper object named
 * for the resource, as the platform's shown create requests do, and any 2xx is accepted
 * (no status is stated for these operations).
 */
import { test, expect, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import { ANY_2XX, need } from '../steps/responses.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { PRODUCT_PATH_ENV, type ProductPaths, type TargetProfile } from '../../targets/index.ts';
import { connectedUser, memberAccounts, walkList } from './journeys.ts';

const TAGS = ['@product-areas', '@destructive'];

type Rec = Record<string, unknown> & { guid?: string };

/** The profile's path for an operation with its placeholders filled, or a skip naming the variable. */
function pathOf(profile: TargetProfile, key: keyof ProductPaths, values: Record<string, string> = {}): string {
  const template = profile.productPaths[key];
  test.skip(
    !template,
    `${PRODUCT_PATH_ENV[key]} is not set: the specification does not show this path (Endpoints: "Paths and payloads of the other product areas ... not shown"), so the target profile must name it`,
  );
  return template!.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`${PRODUCT_PATH_ENV[key]} = ${template} names {${name}}, which this scenario cannot fill`);
    return encodeURIComponent(v);
  });
}

/** The one resource of a create/read answer: the wrapper object named for it, else the only object property (list keys are implied, not shown). */
function single(api: CheckedClient, res: CheckedResponse, wrapper: string): Rec {
  const body = res.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && body[wrapper] && typeof body[wrapper] === 'object') return body[wrapper] as Rec;
  const objects = Object.values(body ?? {}).filter((v) => v && typeof v === 'object' && !Array.isArray(v));
  if (objects.length === 1) return objects[0] as Rec;
  return need<Rec>(res, wrapper, api);
}

/** The records of a list answer: the array under the resource's plural, else the only array property. */
function records(api: CheckedClient, res: CheckedResponse, plural: string): Rec[] {
  const body = res.body as Record<string, unknown> | undefined;
  if (Array.isArray(body?.[plural])) return body![plural] as Rec[];
  const arrays = Object.values(body ?? {}).filter(Array.isArray);
  if (arrays.length === 1) return arrays[0] as Rec[];
  return need<Rec[]>(res, plural, api);
}

/** Every string value anywhere in a record (identifiers of what it refers to, whatever the field is called). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

function guidOf(r: Rec, what: string): string {
  // Resources: "Other resources also have a guid".
  expect(typeof r.guid === 'string' && r.guid !== '', `${what} carries a guid: ${JSON.stringify(r).slice(0, 200)}`).toBe(true);
  return r.guid as string;
}

/** Every record of a product-area list, walked page by page (Endpoints: "Lists are paged with page and records_per_page"). */
async function listAll(api: CheckedClient, path: string, plural: string): Promise<Rec[]> {
  const res = await api.get(path, { query: { page: 1, records_per_page: 100 }, expectStatus: ANY_2XX });
  return records(api, res, plural);
}

test('notifications created through the interface have type API_NOTIFICATION, channel PUSH and no entity', { tag: TAGS }, async ({ api, profile }) => {
  pathOf(profile, 'notifications', { user_guid: 'probe' });
  const user = await createUser(api);
  const path = pathOf(profile, 'notifications', { user_guid: user });
  const created = single(
    api,
    await api.post(path, { notification: { title: 'scn check', content: `scn notification ${uniqueId('n')}` } }, { expectStatus: ANY_2XX }),
    'notification',
  );
  const guid = guidOf(created, 'the created notification');
  // What the service does: "Notifications created through the interface always have type
  // API_NOTIFICATION, channel PUSH, and no associated entity."
  const judge = (n: Rec, where: string) => {
    expect(n.type, `${where}: type`).toBe('API_NOTIFICATION');
    expect(n.channel, `${where}: channel`).toBe('PUSH');
    // The entity's field names are not shown: any field that names an entity must be empty.
    const entity = Object.entries(n).filter(([k, v]) => /entity/i.test(k) && v !== null && v !== undefined && v !== '');
    expect(
      entity.map(([k, v]) => `${k}=${JSON.stringify(v)}`),
      `${where}: fields naming an associated entity`,
    ).toEqual([]);
  };
  judge(created, 'the create answer');
  if (profile.productPaths.notification) {
    judge(
      single(api, await api.get(pathOf(profile, 'notification', { user_guid: user, notification_guid: guid }), { expectStatus: ANY_2XX }), 'notification'),
      'the notification read back',
    );
  }
  // "Read and list operations may also return notifications of other channels": only the
  // one created here is judged in the list.
  const listed = (await listAll(api, path, 'notifications')).find((n) => n.guid === guid);
  expect(listed, `the created notification ${guid} in the user's notification list`).toBeTruthy();
  judge(listed!, 'the notification in the list');
});

test('goals carry track_type_name and meta_type_name and can be repositioned to change priority', { tag: TAGS }, async ({ api, profile }) => {
  pathOf(profile, 'goals', { user_guid: 'probe' });
  pathOf(profile, 'goalsReposition', { user_guid: 'probe' });
  const user = await createUser(api);
  const path = pathOf(profile, 'goals', { user_guid: user });
  const make = async (name: string, track: string, meta: string) =>
    single(api, await api.post(path, { goal: { name, goal_amount: 1000, track_type_name: track, meta_type_name: meta } }, { expectStatus: ANY_2XX }), 'goal');
  const first = await make('scn house', 'SAVINGS', 'HOUSE');
  const second = await make('scn college', 'SAVINGS', 'COLLEGE');
  const a = guidOf(first, 'the first goal');
  const b = guidOf(second, 'the second goal');
  // What the service does: goals "each with track_type_name ... and meta_type_name".
  for (const g of [first, second]) {
    expect(typeof g.track_type_name, `goal ${g.guid}: track_type_name`).toBe('string');
    expect(typeof g.meta_type_name, `goal ${g.guid}: meta_type_name`).toBe('string');
  }
  /** Rank of each goal: its numeric position where the target gives one, else its place in the list; and its types as listed. */
  const ranks = async () => {
    const goals = await listAll(api, path, 'goals');
    const byPosition = goals.every((g) => typeof g.position === 'number');
    const rank = (guid: string) => {
      const i = goals.findIndex((g) => g.guid === guid);
      expect(i, `goal ${guid} in the user's goal list`).toBeGreaterThanOrEqual(0);
      return byPosition ? (goals[i].position as number) : i;
    };
    const types = Object.fromEntries(goals.filter((g) => g.guid === a || g.guid === b).map((g) => [g.guid, [g.track_type_name, g.meta_type_name]]));
    return { a: rank(a), b: rank(b), types };
  };
  const before = await ranks();
  // "goals can be repositioned to change priority": put the lower-priority goal first.
  const [top, next] = before.a < before.b ? [b, a] : [a, b];
  await api.put(
    pathOf(profile, 'goalsReposition', { user_guid: user }),
    {
      goals: [
        { guid: top, position: 1 },
        { guid: next, position: 2 },
      ],
    },
    { expectStatus: ANY_2XX },
  );
  const after = await ranks();
  const topRank = top === a ? after.a : after.b;
  const nextRank = top === a ? after.b : after.a;
  expect(
    topRank,
    `after repositioning, goal ${top} ranks before goal ${next} (before: ${JSON.stringify(before)}, after: ${JSON.stringify(after)})`,
  ).toBeLessThan(nextRank);
  // Repositioned "to change priority", and only that: each goal keeps its track_type_name and meta_type_name.
  expect(after.types, 'track_type_name and meta_type_name of the two goals, listed after repositioning against before').toEqual(before.types);
});

test("budgets carry a category_guid; generated budgets come from the user's existing transactions", { tag: TAGS }, async ({ api, poll, profile }) => {
  pathOf(profile, 'budgets', { user_guid: 'probe' });
  pathOf(profile, 'budgetsGenerate', { user_guid: 'probe' });
  const { user } = await connectedUser(api, poll);
  const transactions = await walkList<Rec>(api, `/users/${user}/transactions`, 'transactions');
  const used = new Set(transactions.flatMap((t) => [t.category_guid, t.top_level_category_guid]).filter((c): c is string => typeof c === 'string' && c !== ''));
  // The Transaction list names category_guid and top_level_category_guid without saying they are
  // always present: a target that serves neither gives no category to make a budget for.
  test.skip(
    used.size === 0 && transactions.length > 0 && transactions.every((t) => !Object.hasOwn(t, 'category_guid') && !Object.hasOwn(t, 'top_level_category_guid')),
    "the target serves no category_guid on the user's transactions, so no category of theirs is known",
  );
  expect(used.size, 'categories of the aggregated transactions').toBeGreaterThan(0);
  // A subcategory where the transactions show one (a category_guid that is not its own top level): a
  // budget's category is then told from its parent.
  const sub = transactions.find(
    (t) => typeof t.category_guid === 'string' && t.top_level_category_guid !== undefined && t.category_guid !== t.top_level_category_guid,
  );
  const category = (sub?.category_guid as string | undefined) ?? [...used][0];
  const path = pathOf(profile, 'budgets', { user_guid: user });
  // What the service does: "Budgets (each with a category_guid, single-category ...)".
  const made = single(api, await api.post(path, { budget: { category_guid: category, amount: 250 } }, { expectStatus: ANY_2XX }), 'budget');
  const manual = guidOf(made, 'the created budget');
  expect(made.category_guid, "the created budget's category_guid").toBe(category);
  // Budgets "are managed per user": the user's budget list (a read: Errors, 200) holds the one created,
  // with the category_guid it was created with ("each with a category_guid": one budget, one category).
  const listed = (await listAll(api, path, 'budgets')).find((b) => b.guid === manual);
  expect(listed, `the user's budgets hold the created budget ${manual}`).toBeTruthy();
  if (Object.hasOwn(listed!, 'category_guid')) expect(listed!.category_guid, `category_guid of budget ${manual} in the user's budget list`).toBe(category);
  // "... or auto-generated from existing transactions": every generated budget is for a
  // category the user's transactions carry.
  const generatedRes = await api.post(pathOf(profile, 'budgetsGenerate', { user_guid: user }), {}, { expectStatus: ANY_2XX });
  const answered = Array.isArray(Object.values(generatedRes.body ?? {}).find(Array.isArray)) ? records(api, generatedRes, 'budgets') : undefined;
  const generated = (answered ?? (await listAll(api, path, 'budgets'))).filter((b) => b.guid !== manual);
  expect(generated.length, "budgets generated from the user's transactions").toBeGreaterThan(0);
  if (answered) {
    // The generated budgets read again in the list name the category their generation answered.
    const relisted = new Map((await listAll(api, path, 'budgets')).map((b) => [b.guid, b]));
    const moved = generated
      .filter((b) => relisted.has(b.guid) && Object.hasOwn(relisted.get(b.guid)!, 'category_guid') && relisted.get(b.guid)!.category_guid !== b.category_guid)
      .map((b) => `${b.guid}: generated ${String(b.category_guid)}, listed ${String(relisted.get(b.guid)!.category_guid)}`);
    expect(moved, 'generated budgets whose listed category_guid differs from the generation answer').toEqual([]);
  }
  for (const b of generated) expect(typeof b.category_guid, `budget ${b.guid}: category_guid`).toBe('string');
  // Which categories the transactions have is known only from the fields they carry: where they
  // carry no category_guid (named, not said to be always present), the relation is not judged.
  if (transactions.some((t) => Object.hasOwn(t, 'category_guid')))
    expect(
      generated.filter((b) => !used.has(b.category_guid as string)).map((b) => `${b.guid}: ${b.category_guid}`),
      "generated budgets for categories none of the user's transactions carry",
    ).toEqual([]);
});

test('statements of a member are served as PDF', { tag: TAGS }, async ({ api, poll, profile }) => {
  pathOf(profile, 'statements', { user_guid: 'probe', member_guid: 'probe' });
  pathOf(profile, 'statementPdf', { user_guid: 'probe', member_guid: 'probe', statement_guid: 'probe' });
  const { user, member } = await connectedUser(api, poll);
  const statements = await listAll(api, pathOf(profile, 'statements', { user_guid: user, member_guid: member }), 'statements');
  test.skip(statements.length === 0, 'the aggregated test member has no statements on this target, so their format cannot be observed');
  const guid = guidOf(statements[0], 'a statement');
  // What the service does: "Statements provide a user's monthly account statements as PDF".
  const pdf = await api.call({
    path: pathOf(profile, 'statementPdf', { user_guid: user, member_guid: member, statement_guid: guid }),
    headers: { accept: 'application/pdf' },
    expectStatus: ANY_2XX,
  });
  expect((pdf.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(), `Content-Type of statement ${guid}`).toBe('application/pdf');
  // ISO 32000: a PDF file begins with the header %PDF-.
  expect(pdf.text.slice(0, 5), `the first bytes of statement ${guid}`).toBe('%PDF-');
});

test('a tagging applies a user-defined tag to one transaction', { tag: TAGS }, async ({ api, poll, profile }) => {
  pathOf(profile, 'tags', { user_guid: 'probe' });
  pathOf(profile, 'taggings', { user_guid: 'probe' });
  const { user } = await connectedUser(api, poll);
  const transactions = await walkList<Rec>(api, `/users/${user}/transactions`, 'transactions');
  expect(transactions.length, 'transactions of the aggregated member (a tagging needs two to tell one from another)').toBeGreaterThan(1);
  const ids = transactions.map((t) => guidOf(t, 'a transaction'));
  // What the service does: "Tags are user-defined labels": the label given is the tag's.
  const name = uniqueId('scn-tag');
  const tag = single(api, await api.post(pathOf(profile, 'tags', { user_guid: user }), { tag: { name } }, { expectStatus: ANY_2XX }), 'tag');
  const tagGuid = guidOf(tag, 'the created tag');
  expect(stringsIn(tag), `the created tag carries its label ${name}`).toContain(name);
  expect(
    (await listAll(api, pathOf(profile, 'tags', { user_guid: user }), 'tags')).map((t) => t.guid),
    "the user's tags",
  ).toContain(tagGuid);
  // "A tagging applies a tag to one transaction": the tagging refers to the tag and to the
  // one transaction it was applied to, and to no other transaction of the user.
  const target = ids[ids.length - 1];
  const judge = (t: Rec, where: string) => {
    const values = stringsIn(t);
    expect(values, `${where} refers to the tag ${tagGuid}`).toContain(tagGuid);
    expect(
      ids.filter((id) => values.includes(id)),
      `${where}: the transactions it refers to`,
    ).toEqual([target]);
  };
  const tagging = single(
    api,
    await api.post(pathOf(profile, 'taggings', { user_guid: user }), { tagging: { tag_guid: tagGuid, transaction_guid: target } }, { expectStatus: ANY_2XX }),
    'tagging',
  );
  judge(tagging, 'the created tagging');
  const taggingGuid = guidOf(tagging, 'the created tagging');
  // The user's taggings (a list read) hold the one created.
  expect(
    (await listAll(api, pathOf(profile, 'taggings', { user_guid: user }), 'taggings')).map((t) => t.guid),
    "the user's taggings",
  ).toContain(taggingGuid);
  if (profile.productPaths.tagging)
    judge(
      single(api, await api.get(pathOf(profile, 'tagging', { user_guid: user, tagging_guid: taggingGuid }), { expectStatus: ANY_2XX }), 'tagging'),
      'the tagging read back',
    );
});

test('holdings read per user, per account and per member agree', { tag: TAGS }, async ({ api, poll, profile }) => {
  for (const key of ['holdingsByUser', 'holdingsByAccount', 'holdingsByMember'] as const)
    pathOf(profile, key, { user_guid: 'probe', account_guid: 'probe', member_guid: 'probe' });
  const { user, member } = await connectedUser(api, poll);
  // What the service does: "Investment holdings are read per user, account or member".
  const byUser = (await walkList<Rec>(api, pathOf(profile, 'holdingsByUser', { user_guid: user }), 'holdings')).map((h) => guidOf(h, 'a holding'));
  const byMember = (await walkList<Rec>(api, pathOf(profile, 'holdingsByMember', { user_guid: user, member_guid: member }), 'holdings')).map((h) =>
    guidOf(h, 'a holding'),
  );
  // Nothing to compare only when neither read shows a holding: an empty read beside a full one is the disagreement.
  test.skip(byUser.length === 0 && byMember.length === 0, 'the aggregated test member has no holdings on this target, so the three reads cannot be compared');
  // The user has this one member: its holdings are the user's.
  expect([...byMember].sort(), `holdings of member ${member} vs holdings of its user (the user's only member)`).toEqual([...byUser].sort());
  // Each account's holdings are its own: the per-account reads partition the member's.
  const perAccount: string[] = [];
  for (const account of await memberAccounts(api, user, member)) {
    perAccount.push(
      ...(await walkList<Rec>(api, pathOf(profile, 'holdingsByAccount', { user_guid: user, account_guid: account.guid }), 'holdings')).map((h) =>
        guidOf(h, 'a holding'),
      ),
    );
  }
  expect([...perAccount].sort(), 'holdings read account by account (each once) vs holdings of the member').toEqual([...byMember].sort());
});
