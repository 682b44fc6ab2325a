/**
 * handleSummary output shared by the scripts: the text summary on stdout (k6's form,
 * with ✓/✗ per threshold) and the JSON summary for the reports/ stage. setup() data is
 * dropped from the file: it carries tokens.
 *
 * Where the JSON goes: `$LOAD_REPORT_DIR/<script>.summary.json`, and without
 * LOAD_REPORT_DIR the reports folder `npm run load` uses, reports/out/load (relative to
 * the working directory): never the working directory itself, which is the repository
 * root when a user types `k6 run load/<script>.ts` there. The text summary ends with the
 * path, so a run always says where its JSON went. k6 writes handleSummary's files only
 * into an existing folder (a missing one costs the file, with an error logged and the
 * exit code unchanged): `npm run load` (load/run.ts) creates the folder first and
 * checks that each script wrote its file; the project's runner creates missing folders.
 */
import { textSummary, type SummaryData } from './summary.ts';

/** The folder of the JSON summaries when LOAD_REPORT_DIR is unset (load/run.ts creates it). */
const REPORT_DIR = 'reports/out/load';

type Env = Record<string, string | undefined>;

/** Path of a script's JSON summary: under LOAD_REPORT_DIR when set, else under REPORT_DIR. */
export function summaryPath(script: string, env: Env = __ENV): string {
  const dir = (env.LOAD_REPORT_DIR || REPORT_DIR).replace(/(.)\/+$/, '$1');
  return `${dir}/${script}.summary.json`;
}

/** The last line of the text summary: where the JSON summary was written, and what k6 needs for it. */
function summaryPathLine(script: string, env: Env = __ENV): string {
  const path = summaryPath(script, env);
  const note = env.LOAD_REPORT_DIR
    ? ''
    : ` (LOAD_REPORT_DIR unset: the default folder, relative to the working directory; k6 writes only into an existing folder: \`mkdir -p ${REPORT_DIR}\` first, or use \`npm run load\`)`;
  return `  JSON summary: ${path}${note}\n`;
}

export function summaryOutputs(
  script: string,
  data: SummaryData,
  meta: Record<string, unknown>,
  extraText: Record<string, string> = {},
  env: Env = __ENV,
): Record<string, string> {
  const { setup_data: _secret, ...rest } = data;
  const report = { script, ...meta, generatedAt: new Date().toISOString(), ...rest };
  return {
    stdout: `${textSummary(data, extraText)}${summaryPathLine(script, env)}`,
    [summaryPath(script, env)]: JSON.stringify(report, null, 2),
  };
}
