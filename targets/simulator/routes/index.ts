/**
 * Route modules of the simulator, per host. Each module registers its own routes and
 * keeps its own collections in ctx.store; add a module by listing it here.
 */
import type { RouteModule } from '../app.ts';
import { registerControl } from './control.ts';

export const PLATFORM_ROUTES: RouteModule[] = [];
export const AUDIENCE_ROUTES: RouteModule[] = [];
export const TEST_HOST_ROUTES: RouteModule[] = [];
export const SIM_PAGE_ROUTES: RouteModule[] = [registerControl];
