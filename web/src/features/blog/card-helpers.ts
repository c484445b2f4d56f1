import { useEffect, useRef, useState } from 'react';

/**
 * Black or white text for a label filled with `hex` (#rrggbb): whichever has the higher WCAG
 * contrast ratio against it, so a category's colour never makes its name unreadable.
 */
export function legibleTextColor(hex: string): '#000000' | '#ffffff' {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return '#000000'; // no fill is drawn for such a value: text on the card's own background
  const n = parseInt(m[1]!, 16);
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  // contrast with black (l + 0.05) / 0.05 against white 1.05 / (l + 0.05)
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** The spec's wait that tells a single click (open the dialog) from a double click (open the page). */
export const DOUBLE_CLICK_MS = 300;

/** Click handlers that run `single` only when no second click follows within 300 ms. */
export function useSingleOrDoubleClick<T>(single: (x: T) => void, double: (x: T) => void) {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return {
    onClick(x: T) {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => single(x), DOUBLE_CLICK_MS);
    },
    onDoubleClick(x: T) {
      window.clearTimeout(timer.current);
      double(x);
    },
  };
}

export const LAYOUTS = [2, 3, 4] as const;
export type Layout = (typeof LAYOUTS)[number];
const LAYOUT_KEY = 'blog.layout';

/** Cards per row on the desktop feed (default 4), remembered in this browser. */
export function useStoredLayout(): [Layout, (l: Layout) => void] {
  const [layout, setLayout] = useState<Layout>(() => {
    const saved = Number(window.localStorage.getItem(LAYOUT_KEY));
    return (LAYOUTS as readonly number[]).includes(saved) ? (saved as Layout) : 4;
  });
  return [
    layout,
    (l) => {
      window.localStorage.setItem(LAYOUT_KEY, String(l));
      setLayout(l);
    },
  ];
}

const PINNED_IN_FEED_KEY = 'blog.pinnedInFeed';

/**
 * Whether the posts in 速報 are also listed among the cards (default: not, so none is shown twice),
 * remembered in this browser.
 */
export function useStoredPinnedInFeed(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => window.localStorage.getItem(PINNED_IN_FEED_KEY) === '1');
  return [
    on,
    (next) => {
      window.localStorage.setItem(PINNED_IN_FEED_KEY, next ? '1' : '0');
      setOn(next);
    },
  ];
}
