import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors, type Locator } from '@playwright/test';
import { loadProfile } from '../../targets/index.ts';
import { controlBoundMs, oauthAction, press, shown, widgetControl } from './controls.ts';

/** A locator whose actions fail as `failure` says and which matches `count` elements; it records the timeouts it was given. */
function fakeScope(count: number, failure?: Error) {
  const timeouts: number[] = [];
  const selectors: string[] = [];
  const act = async (o: { timeout?: number } = {}) => {
    timeouts.push(o.timeout ?? -1);
    if (failure) throw failure;
  };
  const locator = { click: act, waitFor: act, count: async () => count } as unknown as Locator;
  return {
    scope: {
      locator: (selector: string) => {
        selectors.push(selector);
        return locator;
      },
    },
    timeouts,
    selectors,
  };
}

const profile = loadProfile({});

test('a control that never appears fails naming the setting its selector comes from, within its own bound', async () => {
  const bound = controlBoundMs(profile);
  assert.equal(bound, profile.timeouts.requestMs + profile.timeouts.browserEventMs);
  assert.ok(bound < profile.timeouts.testMs, 'the bound ends before the test timeout, so the named failure is the one reported');
  const { scope, timeouts, selectors } = fakeScope(0, new errors.TimeoutError('locator.click: Timeout exceeded'));
  const control = widgetControl(profile, 'connect');
  await assert.rejects(
    press(scope, control, profile),
    new Error(
      `no element matches SVC_WIDGET_CONNECT_SELECTOR=${control.selector} within ${bound} ms (to press it): the page's markup is not shown in the specification, so the selector is that setting's; set SVC_WIDGET_CONNECT_SELECTOR to the control's CSS selector on this target's page`,
    ),
  );
  assert.deepEqual(timeouts, [bound]);
  assert.deepEqual(selectors, [profile.widget.connect]);
});

test('a control that matches but cannot be used says so; a longer bound is passed through', async () => {
  const { scope, timeouts } = fakeScope(2, new errors.TimeoutError('locator.click: Timeout exceeded'));
  await assert.rejects(
    press(scope, oauthAction(profile, 'deny'), profile, 99_000),
    /^Error: 2 element\(s\) matching SVC_OAUTH_DENY_SELECTOR=\[data-action="deny"\] could not be used within 99000 ms \(to press it: hidden, disabled or covered\)/,
  );
  assert.deepEqual(timeouts, [99_000]);
});

test('a failure that is not a timeout (the page closed) is not renamed; a shown control is returned', async () => {
  const closed = new Error('Target page, context or browser has been closed');
  await assert.rejects(shown(fakeScope(0, closed).scope, oauthAction(profile, 'authorize'), profile), closed);
  const { scope, timeouts } = fakeScope(1);
  const locator = await shown(scope, oauthAction(profile, 'authorize'), profile);
  assert.equal(typeof locator.click, 'function');
  assert.deepEqual(timeouts, [controlBoundMs(profile)]);
});
