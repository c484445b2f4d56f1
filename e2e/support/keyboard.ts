import type { Locator, Page } from 'playwright-core';

/** What has the focus, and whether a sighted keyboard user can see where it is. */
export interface FocusState {
  /** `tag[data-testid]` / `tag[aria-label]` / `tag.text`: enough to say which element in a message. */
  label: string;
  testId: string | null;
  /** :focus-visible matches and an outline or a box shadow is drawn (for a form field: or on its wrapper). */
  visible: boolean;
}

export function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { label: 'body', testId: null, visible: false };
    const cs = getComputedStyle(el);
    const outlined = (e: Element) => {
      const s = getComputedStyle(e);
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    };
    // Primer's text inputs and selects draw the ring on their wrapper (:focus-within), one or two levels up.
    const outline =
      outlined(el) ||
      (el.matches('input, select, textarea') &&
        [el.parentElement, el.parentElement?.parentElement].some((p) => p && outlined(p)));
    const shadow = cs.boxShadow !== 'none' && cs.boxShadow !== '';
    const testId = el.getAttribute('data-testid');
    const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30);
    return {
      label: `${el.tagName.toLowerCase()}${testId ? `[${testId}]` : ''} "${name}"`,
      testId,
      visible: el.matches(':focus-visible') && (outline || shadow),
    };
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element is `target`, checking on the way that
 * every stop shows where the focus is. Returns the stops without a visible indicator.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  opts: { max?: number; back?: boolean } = {},
): Promise<{ invisible: string[] }> {
  const invisible: string[] = [];
  for (let i = 0; i < (opts.max ?? 80); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const state = await focusState(page);
    if (!state.visible) invisible.push(state.label);
    if (await target.evaluate((el) => el === document.activeElement)) return { invisible };
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${opts.max ?? 80} presses`);
}

/** Whether `locator` holds the focus (itself or an element inside it). */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));
}
