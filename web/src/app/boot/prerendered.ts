/** The named inputs of the pre-rendered page (web/scripts/prerender.mjs) and which one has the focus. */
export interface PrerenderedInputs {
  inputs: Partial<Record<string, HTMLInputElement>>;
  focused: string | null;
  /** Whether the visitor pressed the form's button (or Enter in a field) before the app ran (public/early-input.js); read it at the commit. */
  submitRequested: () => boolean;
}

/**
 * The form fields of the pre-rendered page, which the visitor may have typed in, ticked or focused
 * before the app took it over. The app's first render replaces that markup; the elements stay
 * readable after, so the page can start from what they hold at its commit instead of losing it.
 * Empty once the app has replaced the markup, and without a document (the build's own pre-render).
 */
export function prerenderedInputs(): PrerenderedInputs {
  if (typeof document === 'undefined') return { inputs: {}, focused: null, submitRequested: () => false };
  // Only the build's markup carries data-prerendered: once the app has replaced it, nothing matches.
  const found = [...document.querySelectorAll<HTMLInputElement>('#root > [data-prerendered] input[name]')];
  const focused = found.find((i) => i === document.activeElement)?.name ?? null;
  const form = document.querySelector('#root > [data-prerendered] form');
  const submitRequested = () => form?.hasAttribute('data-submit-requested') === true;
  return { inputs: Object.fromEntries(found.map((i) => [i.name, i])), focused, submitRequested };
}
