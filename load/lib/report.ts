/**
 * handleSummary output shared by the scripts: the text summary on stdout (k6's form,
 * with ✓/✗ per threshold) and the JSON summary for the reports/ stage. setup() data is
 * dropped from the file: it carries tokens.
 *
 * Where the JSON goes: k6 writes handleSummary's file paths as given and does not create
 * missing directories (the write fails and the summary is lost), so the default is the
 * working directory, which exists: `<script>.summary.json`. LOAD_REPORT_DIR names
 * another directory; whoever sets it creates it first (`npm run load`, load/run.ts,
 * sets it to reports/out/load after creating that; the project's runner also creates
 * missing directories itself).
 */
import { textSummary, type SummaryData } from './summary.ts';

/** The directory `npm run load` writes summaries to (load/run.ts creates it). */
export const REPORT_DIR = 'reports/out/load';

/** Path of a script's JSON summary: under LOAD_REPORT_DIR when set, else in the working directory. */
export function summaryPath(script: string, env: Record<string, string | undefined> = __ENV): string {
  const dir = (env.LOAD_REPORT_DIR ?? '').replace(/\/+$/, '');
  return dir ? `${dir}/${script}.summary.json` : `${script}.summary.json`;
}

export function summaryOutputs(script: string, data: SummaryData, meta: Record<string, unknown>, extraText: Record<string, string> = {}): Record<string, string> {
  const { setup_data: _secret, ...rest } = data;
  const report = { script, ...meta, generatedAt: new Date().toISOString(), ...rest };
  return {
    stdout: textSummary(data, extraText),
    [summaryPath(script)]: JSON.stringify(report, null, 2),
  };
}
