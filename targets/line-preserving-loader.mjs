/**
 * Registers the line-preserving hooks (line-preserving-hooks.mjs) in a Playwright process of a
 * run from node_modules: `--import <this file>` after tsx's (targets/process.ts nodeOptionsFor).
 */
import { register } from 'node:module';

register('./line-preserving-hooks.mjs', import.meta.url);
