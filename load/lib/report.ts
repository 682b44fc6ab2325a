/**
 * handleSummary output shared by the scripts: the text summary on stdout (k6's form,
 * with ✓/✗ per threshold) and the JSON summary under reports/out/load/ for the
 * reports/ stage. setup() data is dropped from the file: it carries tokens.
 */
import { textSummary, type SummaryData } from './summary.ts';

export const REPORT_DIR = 'reports/out/load';

export function summaryOutputs(script: string, data: SummaryData, meta: Record<string, unknown>, extraText: Record<string, string> = {}): Record<string, string> {
  const { setup_data: _secret, ...rest } = data;
  const report = { script, ...meta, generatedAt: new Date().toISOString(), ...rest };
  const dir = __ENV.LOAD_REPORT_DIR || REPORT_DIR;
  return {
    stdout: textSummary(data, extraText),
    [`${dir}/${script}.summary.json`]: JSON.stringify(report, null, 2),
  };
}
