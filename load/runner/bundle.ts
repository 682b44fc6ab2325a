/**
 * Turns a k6 script (TypeScript or JavaScript, with relative imports) into one CommonJS
 * text that the runner evaluates once per VU. esbuild strips the types exactly as k6
 * (>= 0.57) does natively; k6 module imports are replaced by the runner's shims, and any
 * import the runner does not implement is refused here, before a single request is sent.
 */
import { build, type Plugin } from 'esbuild';
import { SUPPORTED_MODULES, UnsupportedError } from './surface.ts';

const SHIM_NAMESPACE = 'k6-runner-shim';

function supportedList(): string {
  return Object.entries(SUPPORTED_MODULES)
    .map(([m, names]) => `${m} (${names.join(', ')})`)
    .join('; ');
}

const k6ShimPlugin: Plugin = {
  name: 'k6-runner-shims',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
      if (!(args.path in SUPPORTED_MODULES)) {
        return {
          errors: [
            { text: `the k6 module "${args.path}" is not implemented by the k6-compatible runner (implemented: ${supportedList()}); run this script with k6` },
          ],
        };
      }
      return { path: args.path, namespace: SHIM_NAMESPACE };
    });
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({
      errors: [
        { text: `remote module "${args.path}" is not supported by the k6-compatible runner (no network imports); vendor the code under load/script-support` },
      ],
    }));
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return {
        errors: [
          {
            text: `module "${args.path}" cannot be imported: k6 scripts import only k6 modules and relative files (implemented k6 modules: ${Object.keys(SUPPORTED_MODULES).join(', ')})`,
          },
        ],
      };
    });
    b.onLoad({ filter: /.*/, namespace: SHIM_NAMESPACE }, (args) => {
      const names = SUPPORTED_MODULES[args.path].filter((n) => n !== 'default');
      const lines = [`const m = __k6modules[${JSON.stringify(args.path)}];`, 'export default m.default;'];
      for (const n of names) lines.push(`export const ${n} = m.${n};`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

export interface BundledScript {
  path: string;
  code: string;
}

export async function bundleScript(scriptPath: string): Promise<BundledScript> {
  try {
    const result = await build({
      entryPoints: [scriptPath],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      logLevel: 'silent',
      plugins: [k6ShimPlugin],
      // k6's per-VU globals, rebound per instance (shims.ts instantiate()).
      define: { __VU: '__k6vu.vu', __ITER: '__k6vu.iter', __ENV: '__k6vu.env' },
      sourcemap: false,
    });
    return { path: scriptPath, code: result.outputFiles[0].text };
  } catch (e) {
    const errors = (e as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
    if (errors?.length) {
      const text = errors
        .map((x) => {
          const where = x.location ? `${x.location.file}:${x.location.line}: ` : '';
          const hint = /No matching export in "k6-runner-shim:([^"]+)" for import "([^"]+)"/.exec(x.text);
          if (hint) return `${where}"${hint[2]}" from "${hint[1]}" is not implemented by the k6-compatible runner (implemented: ${supportedList()})`;
          return `${where}${x.text}`;
        })
        .join('\n');
      throw new UnsupportedError(text);
    }
    throw e;
  }
}
