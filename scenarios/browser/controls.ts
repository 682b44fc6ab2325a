/**
 * The controls of pages whose markup the specification does not show: the widget's (its
 * connect, OAuth and answer controls) and the OAuth test institution's authorize and deny
 * actions. The profile names each by a CSS selector from a setting (SVC_WIDGET_*_SELECTOR,
 * SVC_OAUTH_*_SELECTOR), so a selector that matches nothing on a target's page is the
 * user's setting, not the service's fault: the scenario fails naming that setting, within
 * a bound of its own, instead of waiting out the test timeout with a bare locator.
 *
 * The bound: the page may take a request's time to load and then the browser-event bound
 * to act (profile.timeouts requestMs + browserEventMs); a control that appears only after
 * an aggregation is pressed with a longer one by its scenario.
 */
import { errors, type Locator } from '@playwright/test';
import { SETTINGS, WIDGET_CONTROLS, type TargetProfile, type WidgetControls } from '../../targets/index.ts';

/** A control's selector and the setting it comes from. */
export interface NamedControl {
  selector: string;
  setting: string;
}

/** Where a control is looked for: a page, a popup or the widget's frame. */
interface Scope {
  locator(selector: string): Locator;
}

/** A widget control the profile names (its scenario has skipped if the selector is unset). */
export function widgetControl(profile: TargetProfile, control: keyof WidgetControls): NamedControl {
  return { selector: profile.widget[control] ?? '', setting: WIDGET_CONTROLS[control].env };
}

/** The OAuth test institution's authorize or deny action. */
export function oauthAction(profile: TargetProfile, action: 'authorize' | 'deny'): NamedControl {
  return action === 'authorize'
    ? { selector: profile.oauthPage.authorizeSelector, setting: SETTINGS.oauthPage.authorizeSelector.env }
    : { selector: profile.oauthPage.denySelector, setting: SETTINGS.oauthPage.denySelector.env };
}

/** How long a control may take to be there: its page's load (a request) and then the page acting. */
export function controlBoundMs(profile: TargetProfile): number {
  return profile.timeouts.requestMs + profile.timeouts.browserEventMs;
}

/** Why a control was not there in time, naming its setting first. */
async function controlMissing(target: Locator, control: NamedControl, timeoutMs: number, doing: string): Promise<string> {
  const count = await target.count().catch(() => undefined);
  const where = `${control.setting}=${control.selector}`;
  if (count === 0)
    return `no element matches ${where} within ${timeoutMs} ms (to ${doing}): the page's markup is not shown in the specification, so the selector is that setting's; set ${control.setting} to the control's CSS selector on this target's page`;
  const matched = count === undefined ? 'the element' : `${count} element(s)`;
  return `${matched} matching ${where} could not be used within ${timeoutMs} ms (to ${doing}: hidden, disabled or covered); is ${control.setting} the control's selector on this target's page?`;
}

async function bounded<T>(target: Locator, control: NamedControl, timeoutMs: number, doing: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (e) {
    if (!(e instanceof errors.TimeoutError)) throw e;
    throw new Error(await controlMissing(target, control, timeoutMs, doing), { cause: e });
  }
}

/** Clicks the control, bounded; `timeoutMs` for a control that appears only after a longer wait. */
export async function press(scope: Scope, control: NamedControl, profile: TargetProfile, timeoutMs = controlBoundMs(profile)): Promise<void> {
  const target = scope.locator(control.selector);
  await bounded(target, control, timeoutMs, 'press it', () => target.click({ timeout: timeoutMs }));
}

/** The control, once it is shown (for typing into it, or pressing it another way), bounded. */
export async function shown(scope: Scope, control: NamedControl, profile: TargetProfile): Promise<Locator> {
  const target = scope.locator(control.selector);
  const timeoutMs = controlBoundMs(profile);
  await bounded(target, control, timeoutMs, 'see it', () => target.waitFor({ state: 'visible', timeout: timeoutMs }));
  return target;
}
