// A team's config file, committed at the root of the integration's repository next to its
// workflow (examples/github-workflow.yml): every non-secret setting of the vendor's
// integration environment. Secrets come from the repository's secret store through the
// workflow's env. The workspace needs no `npm install`: inside the action, the name
// 'svc-conformance' resolves to the suite that runs the file.
import { defineConfig } from 'svc-conformance';

export default defineConfig({
  target: { baseUrl: 'https://int-api.example.com', environment: 'integration' },
  versions: { supported: ['v20111101', 'v20250224', 'v20260929'], deprecationHeader: 'Deprecation' },
  timeouts: { requestMs: 30_000, aggregationMs: 120_000 },
  oauthPage: { authorizeSelector: '#authorize', denySelector: '#deny' },
});
