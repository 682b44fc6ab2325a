// Node module resolution hook of the self-test's configuration (proof/playwright.config.ts
// registers it in every Playwright process: the runner, the loader and each worker). A
// scenario spec imports `test` from scenarios/fixtures.ts; under the self-test that import
// resolves to proof/entry-test.ts, the self-test's `test` (each scenario declared once per
// plan entry, with the self-test's fixtures), which re-exports everything else of the
// scenarios' fixtures. proof/entry-test.ts's own import of the fixtures is left as it is.
// So the scenarios and their fixtures stay the ones `npm run conformance` runs, and never
// name the self-test.
const SCENARIO_FIXTURES = new URL('../scenarios/fixtures.ts', import.meta.url).href;
const ENTRY_TEST = new URL('./entry-test.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url === SCENARIO_FIXTURES && context.parentURL !== ENTRY_TEST) return { ...resolved, url: ENTRY_TEST };
  return resolved;
}
