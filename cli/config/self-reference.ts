/**
 * A config file names the package (`import { defineConfig } from 'svc-conformance'`), but
 * the folder it lives in need not have the package installed: a CI workspace whose job
 * never ran `npm install` (the composite action runs the suite from its own checkout), or
 * `npx svc-conformance` fetched into npm's cache. Node's resolution goes first, so an
 * installed copy wins; only when it finds none is the name resolved as the running package
 * resolves its own name (package.json "exports": the import or the require condition).
 *
 * Two hooks, one per module system: tsx compiles a .ts config to CommonJS in a project
 * whose package.json has no "type": "module", and its require() never reaches the ESM
 * resolve hooks.
 */
import Module, { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_NAME = 'svc-conformance';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const namesThePackage = (specifier: string) => specifier === PACKAGE_NAME || specifier.startsWith(`${PACKAGE_NAME}/`);

let installed = false;

/** Makes `svc-conformance` resolvable from any config file for the rest of the process (idempotent). */
export function resolvePackageNameToSelf(): void {
  if (installed) return;
  installed = true;
  const selfFile = join(ROOT, 'package.json');
  register(pathToFileURL(join(ROOT, 'cli/config/self-reference-hooks.mjs')).href, { data: { selfParent: pathToFileURL(selfFile).href } });

  // Node's CommonJS loader has no public resolve hook before Node 22.15 (module.registerHooks):
  // its internal _resolveFilename is wrapped, as tsx itself does.
  const loader = Module as unknown as {
    _resolveFilename: (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;
    _nodeModulePaths: (dir: string) => string[];
  };
  const self = Object.assign(new Module(selfFile), { filename: selfFile, paths: loader._nodeModulePaths(ROOT) });
  const resolveFilename = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    try {
      return resolveFilename.call(this, request, parent, isMain, options);
    } catch (e) {
      if (!namesThePackage(request) || (e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
      return resolveFilename.call(this, request, self, isMain, options);
    }
  };
}
