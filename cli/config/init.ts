/**
 * `svc-conformance config init`: a starting config file for a real integration
 * environment, and the settings reference generated from the settings table.
 */
import { extname } from 'node:path';
import { CONTRACT_VERSIONS, SETTINGS } from '../../targets/index.ts';
import { accepted, configFromEnv } from './load.ts';
import { GROUP_TITLES, settingEntries, type SettingEntry, type SvcConfig } from './schema.ts';

/** A config file holding exactly `config` (config init --from-env). */
export function configFileOf(config: SvcConfig, format: 'ts' | 'json', o: { importFrom?: string } = {}): string {
  const json = JSON.stringify(config, null, 2);
  if (format === 'json') return `${json}\n`;
  return `// svc-conformance configuration (secrets stay in the environment: SVC_CLIENT_ID, SVC_API_KEY, SVC_TEST_PASSWORD_*, ...).\nimport { defineConfig } from '${o.importFrom ?? 'svc-conformance'}';\n\nexport default defineConfig(${json});\n`;
}

/** The format a written config file takes from its name: a module (.ts, .mts, .mjs, .js) or JSON; undefined for any other name. */
export function configFormatOf(file: string): 'ts' | 'json' | undefined {
  const ext = extname(file).toLowerCase();
  return ext === '.json' ? 'json' : ['.ts', '.mts', '.mjs', '.js'].includes(ext) ? 'ts' : undefined;
}

/** A setting's value as the environment would hold it, and where it came from. */
export interface SourcedValue {
  variable: string;
  value: string;
  source: string;
}

/**
 * A config file holding `values` (SVC_* values, read as the profile reads them), each
 * preceded by a comment naming where its value came from. JSON has no comments: the
 * sources are then the caller's to print. Secrets are refused here as in any config file
 * (configFromEnv leaves them out).
 */
export function configFileWithSources(values: readonly SourcedValue[], format: 'ts' | 'json', o: { header?: string[]; footer?: string[] } = {}): string {
  const config = configFromEnv(Object.fromEntries(values.map((v) => [v.variable, v.value])));
  if (format === 'json') return `${JSON.stringify(config, null, 2)}\n`;
  const sourceOf = new Map(values.map((v) => [v.variable, v.source]));
  const variableOf = new Map(settingEntries().map((e) => [e.key, e.env]));
  const comment = (lines: string[]) => lines.map((l) => `// ${l}`.trimEnd());
  const literal = (v: unknown) => (Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : JSON.stringify(v));
  // A comment heads the run of values of one object that share its source.
  const render = (node: Record<string, unknown>, path: string[], indent: string): string[] => {
    let previous: string | undefined;
    return Object.entries(node).flatMap(([k, v]) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        previous = undefined;
        return [`${indent}${k}: {`, ...render(v as Record<string, unknown>, [...path, k], `${indent}  `), `${indent}},`];
      }
      const source = sourceOf.get(variableOf.get([...path, k].join('.')) ?? '');
      const head = source && source !== previous ? [`${indent}// ${source}`] : [];
      previous = source;
      return [...head, `${indent}${k}: ${literal(v)},`];
    });
  };
  return [
    ...comment(o.header ?? []),
    "import { defineConfig } from 'svc-conformance';",
    '',
    'export default defineConfig({',
    ...render(config as Record<string, unknown>, [], '  '),
    '});',
    ...(o.footer?.length ? ['', ...comment(o.footer)] : []),
    '',
  ].join('\n');
}

/** A real target's default of a timeout, as the settings table states it. */
const realDefault = (s: { value?: { real?: number } }): number => s.value?.real ?? 0;
/** A number as a TypeScript literal with digit groups (30_000). */
const tsNumber = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, '_');

/** The starting file: the settings a team fills in first, the rest one `config docs` away. */
export function configTemplate(format: 'ts' | 'json', o: { importFrom?: string } = {}): string {
  const requestMs = realDefault(SETTINGS.timeouts.requestMs);
  const aggregationMs = realDefault(SETTINGS.timeouts.aggregationMs);
  if (format === 'json') {
    return `${JSON.stringify(
      {
        $schema: './node_modules/svc-conformance/docs/config.schema.json',
        target: { baseUrl: 'https://int-api.example.com', environment: 'integration' },
        testInstitution: { code: 'svcbank', oauthCode: 'svc_bank_oauth' },
        versions: { supported: [...CONTRACT_VERSIONS] },
        timeouts: { requestMs, aggregationMs },
      },
      null,
      2,
    )}\n`;
  }
  return `// svc-conformance configuration: every non-secret setting of your target.
// Secrets never go in this file: set them in the environment (or your CI's secret store):
//   SVC_CLIENT_ID, SVC_API_KEY                       platform credentials (Basic)
//   SVC_TEST_PASSWORD_SUCCESS, _CHALLENGE, ...       the test institution's scenario passwords
//   SVC_CORRECT_ANSWER                               the MFA correct answer
//   SVC_AUDIENCE_CLIENT_ID, SVC_AUDIENCE_CLIENT_SECRET  audience service (optional)
// Environment variables also override any value below (${SETTINGS.timeouts.requestMs.env}=${2 * requestMs} ...).
// Every setting: npx svc-conformance config docs   Check this file: npx svc-conformance config check
import { defineConfig } from '${o.importFrom ?? 'svc-conformance'}';

export default defineConfig({
  target: {
    // The vendor's integration environment (never production without allowDestructive).
    baseUrl: 'https://int-api.example.com',
    environment: 'integration',
    // audienceBaseUrl: 'https://audience.example.com',
    // testHostBaseUrl: 'https://test-host.example.com',
  },
  testInstitution: {
    code: 'svcbank',
    oauthCode: 'svc_bank_oauth',
  },
  versions: {
    // The versions your target serves; the suites exercise each, and a scenario judged on
    // one left out skips (svc-conformance preflight names them).
    supported: ${JSON.stringify(CONTRACT_VERSIONS).replace(/"/g, "'").replace(/,/g, ', ')},
    // deprecationHeader: 'Deprecation', sunsetHeader: 'Sunset',  // enforced once named
  },
  timeouts: {
    requestMs: ${tsNumber(requestMs)},
    aggregationMs: ${tsNumber(aggregationMs)},
  },
  // oauthPage: { authorizeSelector: '...', denySelector: '...' },
  // dataExchange: { issuerGuid: '...', granteeGuid: '...', grantGuid: '...' },
});
`;
}

function row(e: SettingEntry): string {
  // The table's words are the project's own Markdown (code spans in the docs): only what
  // would end the cell or the row is escaped, unlike a target's words (reports/markdown.ts).
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, ' ');
  return `| ${e.secret ? '(environment only)' : `\`${e.key}\``} | \`${e.env}\` | ${cell(accepted(e))} | ${cell(e.default ?? '')} | ${cell(e.doc)} |`;
}

/** docs/settings.md: every setting, by group, from the table (a test keeps the file current). */
export function settingsMarkdown(): string {
  const entries = settingEntries();
  const groups = new Map<string, SettingEntry[]>();
  for (const e of entries) {
    const g = e.key.split('.')[0];
    groups.set(g, [...(groups.get(g) ?? []), e]);
  }
  const out = [
    '# Settings',
    '',
    '<!-- Generated by `svc-conformance config docs` from targets/profiles/settings.ts; do not edit by hand. -->',
    '',
    'Every setting lives in the config file (`svc-conformance.config.ts`, `.mjs`, `.js` or `.json`, written by `svc-conformance config init`) under its key, or in the environment under its variable; the environment wins. Secrets are read from the environment only: a config file that holds one is refused.',
    '',
    `${entries.length} settings, ${entries.filter((e) => e.secret).length} of them secrets.`,
    '',
  ];
  for (const [g, list] of groups) {
    out.push(`## ${GROUP_TITLES[g] ?? g}`, '', '| key | variable | accepts | default | what |', '|---|---|---|---|---|', ...list.map(row), '');
  }
  return out.join('\n');
}
