// Loaded (node --import) into every unit-test process of `npm test`: a unit test starts no
// child process. A test that starts the CLI, Playwright, npm, a browser or another node is a
// system test: it lives in tests/ and runs in `npm run test:system` (tests/README.md). The
// rule is kept here, at run time, because the process is often started deep inside an engine
// the test calls, where no reading of the test file would see it.
//
// The one process allowed is esbuild's: tsx compiles TypeScript through it.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const ALLOWED = /[\\/]esbuild(\.exe)?$|[\\/]@esbuild[\\/]/;

for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
  const original = childProcess[name];
  childProcess[name] = function guarded(command, ...rest) {
    const file = String(command);
    if (ALLOWED.test(file)) return original.call(this, command, ...rest);
    throw new Error(
      `a unit test starts no child process (child_process.${name}(${JSON.stringify(file.slice(0, 120))})): a test that does is a system test and belongs in tests/ (npm run test:system)`,
    );
  };
}
syncBuiltinESMExports();
