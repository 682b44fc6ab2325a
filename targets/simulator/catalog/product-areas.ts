/**
 * Catalogue entries: Product areas whose paths are not shown (profile.productPaths;
 * routes/product-areas.ts).
 */
import type { CatalogEntry } from './entry.ts';

export const PRODUCT_AREAS = [
  {
    name: 'notification-type-not-api',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: notifications created through the interface always have type API_NOTIFICATION',
    description: 'A notification created through the interface has type BUDGET_EXCEEDED',
    notFuzzable: 'effect',
  },
  {
    name: 'notification-channel-not-push',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: notifications created through the interface always have channel PUSH',
    description: 'A notification created through the interface has channel EMAIL',
    notFuzzable: 'effect',
  },
  {
    name: 'notification-with-entity',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: notifications created through the interface have no associated entity',
    description: 'A notification created through the interface names the user as its entity (entity_guid, entity_type)',
    notFuzzable: 'effect',
  },
  {
    name: 'goals-reposition-ignored',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: goals can be repositioned to change priority',
    description: 'PUT goals/reposition answers 200 but no goal changes position',
    notFuzzable: 'effect',
  },
  {
    name: 'goal-without-track-type-name',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: goals, each with track_type_name and meta_type_name',
    description: 'Goals carry no track_type_name',
  },
  {
    name: 'budget-without-category-guid',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: budgets, each with a category_guid',
    description: 'Budgets carry no category_guid',
  },
  {
    name: 'budgets-generated-without-transactions',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: budgets auto-generated from existing transactions',
    description: "Generated budgets are for categories none of the user's transactions use",
    notFuzzable: 'comparison',
  },
  {
    name: 'statement-not-pdf',
    kind: 'fault',
    area: 'product-areas',
    section: "What the service does: statements provide a user's monthly account statements as PDF",
    description: 'A statement download answers its JSON record instead of a PDF',
  },
  {
    name: 'tagging-names-another-transaction',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: a tagging applies a tag to one transaction',
    description: 'A tagging names another transaction of the user than the one it was applied to',
    notFuzzable: 'effect',
  },
  {
    name: 'holdings-not-read-per-member',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: investment holdings are read per user, account or member',
    description: 'GET /users/{u}/members/{m}/holdings answers 404',
    notFuzzable: 'not-shown',
  },
  {
    name: 'holdings-per-account-lists-all',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: investment holdings are read per user, account or member',
    description: 'The per-account holdings read lists every holding of the user',
  },
  {
    name: 'notifications-other-channels',
    kind: 'variation',
    area: 'product-areas',
    section: 'What the service does: "Read and list operations may also return notifications of other channels"',
    description: 'Notification lists also carry a seeded EMAIL notification of another type with an entity',
    suites: ['@product-areas'],
  },
] as const satisfies readonly CatalogEntry[];
