import { fileURLToPath } from 'node:url';
import { loadProfile } from '../targets/index.ts';
import { conformanceReporters } from './reporters.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = loadProfile().run.reportsOut;

export default {
  testDir: root,
  reporter: conformanceReporters({ out, listing: false, allure: false }),
};
