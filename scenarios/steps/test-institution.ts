/**
 * The test institution of the profile (`profile.testInstitution`): its scenario
 * passwords, the settings a scenario needs before it creates anything, and the guids of
 * its credential fields.
 */
import type { PasswordScenario, TargetProfile } from '../../targets/index.ts';
import { requireSetting, type CheckedClient } from '../fixtures.ts';
import { need } from './responses.ts';

export function passwordFor(profile: TargetProfile, scenario: PasswordScenario): string {
  return requireSetting(profile.testInstitution.passwords[scenario], `SVC_TEST_PASSWORD_${scenario}`);
}

/**
 * Skips the running test NOW, before it creates anything, when a scenario password it will
 * use is missing (and the correct MFA answer, when asked): a test that created a user and
 * then skipped would only leave work for the teardown, or a user behind if interrupted.
 */
export function requireTestInstitution(profile: TargetProfile, scenarios: PasswordScenario[], o: { correctAnswer?: boolean } = {}): void {
  for (const scenario of scenarios) passwordFor(profile, scenario);
  if (o.correctAnswer) requireSetting(profile.testInstitution.correctAnswer, 'SVC_CORRECT_ANSWER');
}

/** The credential fields of an institution (username, password), by their guids. */
export async function institutionCredentials(api: CheckedClient, code: string, version?: string) {
  // Errors: "200 normal success for reads, lists".
  const res = await api.get(`/institutions/${encodeURIComponent(code)}/credentials`, { version, expectStatus: 200 });
  const creds = need<Array<{ guid: string; field_name?: string; label?: string; type?: string }>>(res, 'credentials', api);
  const isPassword = (c: { field_name?: string; label?: string; type?: string }) => /pass/i.test(`${c.field_name ?? ''} ${c.label ?? ''} ${c.type ?? ''}`);
  const password = creds.find(isPassword);
  const username = creds.find((c) => c !== password);
  if (!password || !username) throw new Error(`Institution ${code} lists no username/password credentials: ${JSON.stringify(creds).slice(0, 300)}`);
  return { username: username.guid, password: password.guid };
}
