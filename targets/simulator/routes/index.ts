/**
 * Route modules of the simulator, per host. Each module registers its own routes: it
 * parses the request, calls the domain (../domain: the core records and their
 * operations; the smaller areas keep their own collections in ctx.store), picks the
 * status and shapes the response. Add a module by listing it here.
 */
import type { RouteModule } from '../app.ts';
import { registerControl } from './control.ts';
import { registerInstitutions } from './institutions.ts';
import { registerCategories } from './categories.ts';
import { registerDataExchange } from './data-exchange.ts';
import { registerAchReturns } from './ach-returns.ts';
import { registerAudience } from './audience.ts';
import { registerTestHost } from './test-host.ts';
import { registerWebhookControl } from '../webhooks/routes.ts';
// Simulator core (What the service does): users, members, aggregation, OAuth, widgets, accounts, processor.
import { registerUsers } from './users.ts';
import { registerMembers } from './members.ts';
import { registerCoreControl } from './control.ts';
import { registerOauthPages } from './oauth.ts';
import { registerWidgetUrls, registerWidgetPages } from './widgets.ts';
import { registerAccounts } from './accounts.ts';
import { registerTransactions } from './transactions.ts';
import { registerInsights } from './insights.ts';
import { registerProcessor } from './processor.ts';
import { registerManaged } from './managed.ts';
// Product areas whose paths the specification does not show (paths from the target profile); before the accounts routes, so its holdings hooks cover them.
import { registerProductAreas } from './product-areas.ts';
// Protocol faults (Accept, Accept-Version, JSON bodies): hooks over every platform route.
import { registerProtocolFaults } from './protocol-faults.ts';
// Version-upgrade check (DESIGN.md, "What it is for" 2): breaking upgrade faults under the newest version; first, so its hooks cover every route.
import { registerUpgradeFaults } from '../upgrade.ts';
// Catalogue variations that add routes (new-endpoint).
import { registerVariationRoutes } from '../variations.ts';

export const PLATFORM_ROUTES: RouteModule[] = [
  registerUpgradeFaults,
  registerProtocolFaults,
  registerProductAreas,
  registerInstitutions,
  registerCategories,
  registerDataExchange,
  registerAchReturns,
  registerUsers,
  registerMembers,
  registerWidgetUrls,
  registerAccounts,
  registerTransactions,
  registerInsights,
  registerProcessor,
  registerManaged,
  registerVariationRoutes,
];
export const AUDIENCE_ROUTES: RouteModule[] = [registerAudience];
export const TEST_HOST_ROUTES: RouteModule[] = [registerTestHost];
export const SIM_PAGE_ROUTES: RouteModule[] = [registerControl, registerWebhookControl, registerCoreControl, registerOauthPages, registerWidgetPages];
