/**
 * Typing a secret (a test-institution password, an MFA answer) into a page without
 * handing it to Playwright as an action parameter.
 *
 * `locator.fill(value)` and `keyboard.type(value)` record the value as the action's
 * parameters and title (`Fill "<value>"`): in the trace, in the HTML report's steps, in
 * the JSON and JUnit output, in the list reporter's output of a failure. Here the value
 * never crosses Playwright's protocol as a parameter: the page asks for it through an
 * exposed binding (the answer of a binding call is an internal message, neither traced
 * nor reported), and the field is filled in the page with the browser's own editing
 * command, which fires the input events a user's typing fires (so a framework-driven
 * form sees the value).
 *
 * What the page does with the value afterwards (its network request, the input's value
 * in a trace's DOM snapshot) is the page's; reports/redaction-reporter.ts removes it
 * from those artefacts. Controls of the widget come from the profile (SVC_WIDGET_*_SELECTOR).
 */
import { test, type Locator, type Page } from '@playwright/test';

const BINDING = '__svcTypedSecret';

/** The secret a page may take, once, while a field is being filled. */
const pending = new WeakMap<Page, { value?: string }>();

async function slotFor(page: Page): Promise<{ value?: string }> {
  let slot = pending.get(page);
  if (!slot) {
    const created: { value?: string } = {};
    slot = created;
    pending.set(page, created);
    // One binding per page, in every frame (the widget runs in a cross-origin iframe).
    await page.exposeBinding(BINDING, () => {
      const value = created.value;
      created.value = undefined;
      return value ?? null;
    });
  }
  return slot;
}

/**
 * Fills `field` with `secret`; the report shows `Type <what> (value withheld)`.
 * Fails, naming the field, when the field is missing or refused the value.
 */
export async function typeSecret(field: Locator, secret: string, what: string): Promise<void> {
  await test.step(
    `Type ${what} (value withheld)`,
    async () => {
      // As fill does: the field must be shown before it is typed into.
      await field.waitFor({ state: 'visible' });
      const slot = await slotFor(field.page());
      slot.value = secret;
      try {
        const filled = await field.evaluate(async (element, binding) => {
          const input = element as HTMLInputElement;
          if (input.disabled || input.readOnly) return false;
          const value = (await (window as unknown as Record<string, () => Promise<string | null>>)[binding]()) ?? '';
          input.focus();
          input.select();
          // insertText edits as typing does (beforeinput/input events, undo history); a
          // field that refuses it gets the value through the element's own setter.
          if (!document.execCommand('insertText', false, value) || input.value !== value) {
            Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set?.call(input, value);
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }
          input.dispatchEvent(new Event('change', { bubbles: true }));
          return input.value === value && value !== '';
        }, BINDING);
        if (!filled) throw new Error(`${what}: the field ${field} is disabled, read-only or did not take the value`);
      } finally {
        slot.value = undefined;
      }
    },
    { box: true },
  );
}
