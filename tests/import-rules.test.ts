/**
 * The import rules that keep the project's shape (../shared/DESIGN.md, "The layout":
 * data flows one way), checked on every relative import of every source and test file:
 *
 *   1. targets/ has one door: a file outside targets/ imports targets/index.ts and no
 *      other file of targets/ (the suites know the target only through the profile).
 *   2. reports/ reads results and renders: it imports none of scenarios/, load/,
 *      proof/, nightly/, upgrade/ (what runs suites).
 *   3. Top-level folders never import each other in a circle (files at the root, such
 *      as playwright.config.ts, count as one more folder, `(root)`).
 *   4. The simulator's domain (targets/simulator/domain: records, state, the aggregation
 *      engine) knows nothing of HTTP: it imports neither its routes nor Fastify.
 *   5. contracts/ has one door: a file outside contracts/ imports contracts/index.ts and no
 *      other file of contracts/ (the suites, the fuzzer, the integration and the self-test
 *      know the contract only through `check`, `checkReceived` and what index.ts exports).
 *   6. The product never leans on the project's own harness: no product room (PRODUCT_ROOMS)
 *      imports tests/ (the system tests and their helpers), bench/ or scripts/ (the shell
 *      entries and the test runner).
 *   7. The commands of cli/commands/ never import each other: what two of them share lives
 *      in cli/invocation.ts or in the room of its concern.
 *   8. No file imports a test file (`*.test.ts`): what a test and the product share lives
 *      in a file of its own.
 *   9. targets/ is what the suites run against, beneath them: it imports none of proof/,
 *      scenarios/, preflight/, cli/ (the simulator process and the process helpers it holds
 *      serve the runners, never the other way round).
 *  10. What only tests and benches use stays out of the product: a file the package ships
 *      imports no test support (`*.test-support.ts`, a room's `test/` folder); package.json
 *      `files` leaves those out, with the tests and the benches (`bench.ts`).
 *
 * A small reader of import specifiers rather than a dependency tool: the project's
 * imports are all relative, written with their `.ts` extension, so the path is the
 * specifier resolved against the importing file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { projectImports, specifiersOf, type Import } from './import-graph.ts';

const SUITES_AND_RUNNERS = ['scenarios', 'load', 'proof', 'nightly', 'upgrade'];
/** The rooms a user's run loads (what the package ships), against tests/, bench/ and scripts/. */
const PRODUCT_ROOMS = ['cli', 'contracts', 'targets', 'scenarios', 'load', 'reports', 'integration', 'preflight', 'history', 'nightly', 'upgrade', 'proof'];
const HARNESS_ROOMS = ['tests', 'bench', 'scripts'];
/** What targets/ must not import (rule 9). */
const ABOVE_TARGETS = ['proof', 'scenarios', 'preflight', 'cli'];
const COMMANDS = 'cli/commands/';

const DOMAIN = 'targets/simulator/domain/';

/** Rule 10: what package.json `files` leaves out of the package, beside the tests. */
const isTestSupport = (path: string) => path.endsWith('.test-support.ts') || /(^|\/)test\//.test(path);
const isTestOrBench = (path: string) => path.endsWith('.test.ts') || path.endsWith('/bench.ts') || isTestSupport(path);

const top = (path: string) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '(root)');

/** Every broken rule, as a sentence naming the importing file. */
export function violations(imports: readonly Import[]): string[] {
  const out: string[] = [];
  for (const { from, to } of imports) {
    const a = top(from);
    const b = top(to);
    if (a !== 'targets' && b === 'targets' && to !== 'targets/index.ts') out.push(`${from} imports ${to}: outside targets/, import targets/index.ts only`);
    if (a !== 'contracts' && b === 'contracts' && to !== 'contracts/index.ts')
      out.push(`${from} imports ${to}: outside contracts/, import contracts/index.ts only`);
    if (a === 'reports' && SUITES_AND_RUNNERS.includes(b)) out.push(`${from} imports ${to}: reports/ reads results and renders; it imports no ${b}/`);
    if (from.startsWith(DOMAIN) && (to.startsWith('targets/simulator/routes/') || to === 'npm:fastify'))
      out.push(`${from} imports ${to}: the simulator's domain knows nothing of HTTP (no routes, no Fastify)`);
    if (PRODUCT_ROOMS.includes(a) && HARNESS_ROOMS.includes(b))
      out.push(`${from} imports ${to}: the product (${a}/) imports nothing of the project's own tests, benches or scripts (${b}/)`);
    if (from.startsWith(COMMANDS) && to.startsWith(COMMANDS) && from !== to)
      out.push(`${from} imports ${to}: a command never imports another; what they share goes to cli/invocation.ts or the room of its concern`);
    if (to.endsWith('.test.ts')) out.push(`${from} imports ${to}: no file imports a test file; move what it shares to a file of its own`);
    if (a === 'targets' && ABOVE_TARGETS.includes(b)) out.push(`${from} imports ${to}: targets/ is beneath the runners; it imports no ${b}/`);
    if (PRODUCT_ROOMS.includes(a) && !isTestOrBench(from) && isTestSupport(to))
      out.push(`${from} imports ${to}: test support is for tests and benches; the package does not ship it`);
  }
  // Folder graph: an edge per pair of different top-level folders, with the files behind it.
  const edges = new Map<string, Map<string, string[]>>();
  for (const { from, to } of imports) {
    const a = top(from);
    const b = top(to);
    if (a === b || to.startsWith('npm:')) continue; // packages are not folders of the project
    const targets = edges.get(a) ?? new Map<string, string[]>();
    targets.set(b, [...(targets.get(b) ?? []), from]);
    edges.set(a, targets);
  }
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const seen = new Set<string>();
  const visit = (n: string) => {
    state.set(n, 'open');
    path.push(n);
    for (const m of edges.get(n)?.keys() ?? []) {
      if (state.get(m) === 'open') {
        const cycle = [...path.slice(path.indexOf(m)), m];
        const key = [...cycle.slice(0, -1)].sort().join(',');
        if (!seen.has(key)) {
          seen.add(key);
          const why = cycle.slice(0, -1).map((x, i) => `${x} -> ${cycle[i + 1]} (${[...new Set(edges.get(x)!.get(cycle[i + 1]))].slice(0, 3).join(', ')})`);
          out.push(`folders import each other in a circle: ${why.join('; ')}`);
        }
      } else if (!state.has(m)) visit(m);
    }
    path.pop();
    state.set(n, 'done');
  };
  for (const n of [...edges.keys()].sort()) if (!state.has(n)) visit(n);
  return out;
}

test('the project keeps its import rules (one door into targets/ and into contracts/, reports/ runs nothing, no circle between folders, no product room on the harness, commands apart, no test imported, targets/ beneath the runners)', () => {
  const imports = projectImports();
  // The reader found the imports it must see, so an empty violation list means something.
  assert.ok(
    imports.some((i) => i.from === 'scenarios/fixtures.ts' && i.to === 'targets/index.ts'),
    'the scenarios fixture imports targets/index.ts',
  );
  assert.ok(
    imports.some((i) => i.from === 'scenarios/fixtures.ts' && i.to === 'contracts/index.ts'),
    'the scenarios fixture imports contracts/index.ts',
  );
  assert.ok(
    imports.some((i) => i.from === 'contracts/contract.ts' && i.to === 'contracts/registry.ts'),
    'imports inside contracts/ were read (and are allowed)',
  );
  assert.ok(imports.length > 300, `only ${imports.length} relative imports found`);
  assert.ok(
    imports.some((i) => i.from.startsWith(DOMAIN)) && imports.some((i) => i.to === 'npm:fastify'),
    'the domain files and the Fastify imports were read',
  );
  assert.deepEqual(violations(imports), []);
});

test('each rule catches what it forbids', () => {
  assert.deepEqual(
    specifiersOf(
      `import a from '../x.ts';\n// import b from '../commented.ts'\nexport * from './y.ts';\nconst c = await import(\`../z.ts?x=\${1}\`);\nimport '../side.ts';`,
    ),
    ['../x.ts', './y.ts', '../z.ts', '../side.ts'],
  );
  const bad = violations([
    { from: 'scenarios/fixtures.ts', to: 'targets/simulator/app.ts' },
    { from: 'reports/summary.ts', to: 'proof/matrix.ts' },
    { from: 'load/run.ts', to: 'nightly/nightly.ts' },
    { from: 'nightly/nightly.ts', to: 'load/run.ts' },
    { from: 'targets/simulator/domain/members.ts', to: 'targets/simulator/routes/members.ts' },
    { from: 'targets/simulator/domain/store.ts', to: 'npm:fastify' },
    { from: 'scenarios/fuzz/engine/engine.ts', to: 'contracts/failure.ts' },
  ]);
  assert.equal(bad.length, 6, bad.join('\n'));
  assert.match(bad[0], /scenarios\/fixtures\.ts imports targets\/simulator\/app\.ts/);
  assert.match(bad[1], /reports\/ reads results and renders/);
  assert.match(bad[2], /domain\/members\.ts imports targets\/simulator\/routes\/members\.ts: the simulator's domain knows nothing of HTTP/);
  assert.match(bad[3], /domain\/store\.ts imports npm:fastify/);
  assert.match(bad[4], /scenarios\/fuzz\/engine\/engine\.ts imports contracts\/failure\.ts: outside contracts\/, import contracts\/index\.ts only/);
  assert.match(bad[5], /circle: load -> nightly \(load\/run\.ts\); nightly -> load \(nightly\/nightly\.ts\)/);
  // Rule 6: every product room, each of the harness rooms.
  for (const room of PRODUCT_ROOMS)
    for (const harness of HARNESS_ROOMS) {
      const found = violations([{ from: `${room}/x.ts`, to: `${harness}/y.ts` }]);
      assert.equal(found.length, 1, `${room}/ -> ${harness}/: ${found.join('; ')}`);
      assert.match(found[0], new RegExp(`the product \\(${room}/\\) imports nothing of the project's own tests, benches or scripts \\(${harness}/\\)`));
    }
  assert.match(violations([{ from: 'proof/mutants/run.ts', to: 'tests/adoption.ts' }])[0], /proof\/mutants\/run\.ts imports tests\/adoption\.ts: the product/);
  // Rule 7: a command importing another.
  assert.deepEqual(violations([{ from: 'cli/commands/run.ts', to: 'cli/commands/preflight.ts' }]), [
    'cli/commands/run.ts imports cli/commands/preflight.ts: a command never imports another; what they share goes to cli/invocation.ts or the room of its concern',
  ]);
  // Rule 8: a test file imported, from the product and from another test.
  assert.match(
    violations([{ from: 'proof/reach.ts', to: 'proof/reach.test.ts' }])[0],
    /proof\/reach\.ts imports proof\/reach\.test\.ts: no file imports a test file/,
  );
  assert.match(violations([{ from: 'tests/package.system.test.ts', to: 'tests/real-target.system.test.ts' }])[0], /no file imports a test file/);
  // Rule 10: test support imported by what the package ships; tests, benches and other test support may.
  assert.deepEqual(violations([{ from: 'targets/simulator/app.ts', to: 'targets/simulator/testing.test-support.ts' }]), [
    'targets/simulator/app.ts imports targets/simulator/testing.test-support.ts: test support is for tests and benches; the package does not ship it',
  ]);
  assert.match(violations([{ from: 'reports/summary.ts', to: 'contracts/test/samples.ts' }]).at(-1)!, /test support is for tests and benches/);
  for (const [from, to] of [
    ['targets/simulator/app.test.ts', 'targets/simulator/testing.test-support.ts'],
    ['contracts/bench.ts', 'contracts/test/samples.ts'],
    ['targets/receiver/bench.ts', 'targets/receiver/hostile.test-support.ts'],
    ['history/drift.test.ts', 'history/test-nights.test-support.ts'],
  ])
    assert.deepEqual(violations([{ from, to }]), [], from);
  // Rule 9: targets/ importing what runs against it.
  for (const room of ABOVE_TARGETS) {
    const found = violations([{ from: 'targets/simulator-process.ts', to: `${room}/x.ts` }]);
    assert.deepEqual(found, [`targets/simulator-process.ts imports ${room}/x.ts: targets/ is beneath the runners; it imports no ${room}/`]);
  }
  assert.deepEqual(
    violations([
      { from: 'scenarios/fixtures.ts', to: 'targets/index.ts' },
      { from: 'targets/simulator/app.ts', to: 'targets/simulator/settings.ts' },
      { from: 'integration/judge.ts', to: 'contracts/index.ts' },
      { from: 'contracts/contract.ts', to: 'contracts/model.ts' },
      { from: 'contracts/test/checks.test.ts', to: 'contracts/load.ts' },
      // The harness may import the product, and a command its invocation and its engine.
      { from: 'tests/real-target.system.test.ts', to: 'proof/real-target.ts' },
      { from: 'bench/load.ts', to: 'load/runner/engine.ts' },
      { from: 'tests/package.system.test.ts', to: 'tests/adoption.ts' },
      { from: 'cli/commands/run.ts', to: 'cli/invocation.ts' },
      { from: 'cli/commands/mutants.ts', to: 'proof/mutants/index.ts' },
      { from: 'targets/simulator-process.ts', to: 'targets/process.ts' },
    ]),
    [],
  );
});
