import { createElement, lazy, useState, type ComponentType } from 'react';

/** A component in its own chunk that can also be fetched ahead of its first render. */
export type LazyScreen<P extends object> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * React.lazy, plus `preload` (one fetch shared with the render). Once the chunk is here the screen
 * renders its component directly: React.lazy suspends once even for a settled promise, which costs
 * a committed fallback and a second render on a phone's main thread (preloadRoute fetches the
 * route's chunks while the session is checked, so they are usually here by the first render).
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyScreen<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    (loading ??= load().then((m) => {
      loaded = m.default;
      return m;
    }));
  const Lazy = lazy(preload);
  function Screen(props: P) {
    // Chosen once per mount, so the component type never changes under a mounted screen.
    const [component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(component, props);
  }
  return Object.assign(Screen, { preload });
}
