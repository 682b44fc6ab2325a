/**
 * The browser every configuration gives the browser scenarios (playwright.config.ts, the
 * self-test's proof/playwright.config.ts): Debian's Chromium, never Playwright's own download.
 * The headless shell cannot open a window: a headed run (Playwright's own flags and PWDEBUG)
 * takes the full browser instead (targets/profiles/sections.ts defaultChromiumPath).
 */
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../targets/index.ts';

export function browserUse(configuredPath: string, argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env) {
  const headed = ['--headed', '--debug', '--ui'].some((flag) => argv.includes(flag)) || !!env.PWDEBUG;
  const executablePath = headed && configuredPath === HEADLESS_SHELL_PATH ? FULL_CHROMIUM_PATH : configuredPath;
  return {
    browserName: 'chromium' as const,
    headless: true,
    launchOptions: {
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  };
}
