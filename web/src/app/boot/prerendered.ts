/** The named inputs of the pre-rendered page (web/scripts/prerender.mjs) and which one has the focus. */
export interface PrerenderedInputs {
  inputs: Partial<Record<string, HTMLInputElement>>;
  focused: string | null;
}

/**
 * The form fields of the pre-rendered page, which the visitor may have typed in, ticked or focused
 * before the app took it over. The app's first render replaces that markup; the elements stay
 * readable after, so the page can start from what they hold at its commit instead of losing it.
 * Empty after the first call, and without a document (the build's own pre-render).
 */
let taken = false;

export function prerenderedInputs(): PrerenderedInputs {
  // Only the page's first screen was pre-rendered: later screens' inputs are the app's own.
  if (typeof document === 'undefined' || taken) return { inputs: {}, focused: null };
  taken = true;
  const found = [...document.querySelectorAll<HTMLInputElement>('#root input[name]')];
  const focused = found.find((i) => i === document.activeElement)?.name ?? null;
  return { inputs: Object.fromEntries(found.map((i) => [i.name, i])), focused };
}
