// Module resolve hook (node:module register): a config file's `import ... from
// 'svc-conformance'` resolves to the running package when the config's own folder has no
// installed copy (a CI workspace that never ran npm install, npx from elsewhere). Node's
// own resolution goes first: an installed copy wins. Plain JavaScript: the hooks run on a
// thread of their own, before any TypeScript loader is there.
let selfParent;

export async function initialize(data) {
  selfParent = data.selfParent;
}

const NAME = 'svc-conformance';

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (e) {
    if ((specifier !== NAME && !specifier.startsWith(`${NAME}/`)) || e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    // Resolved as the package resolves its own name (package.json "exports", the import condition).
    return next(specifier, { ...context, parentURL: selfParent });
  }
}
