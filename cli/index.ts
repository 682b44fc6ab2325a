/**
 * The package's entry for a user's config file:
 *
 *   import { defineConfig } from 'svc-conformance';
 *   export default defineConfig({ target: { baseUrl: 'https://int-api.example.com' } });
 */
export { defineConfig, SETTINGS, settingEntries, type SvcConfig, type SettingEntry } from './config/schema.ts';
export { configJsonSchema, configProblems, resolveSettings, ConfigError, type ResolvedSettings } from './config/load.ts';
