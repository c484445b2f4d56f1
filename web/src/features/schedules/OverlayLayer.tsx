import type { ReactNode } from 'react';
import { PortalContext, registerPortalRoot } from '@primer/react';

const NAME = 'schedules-overlays';

/**
 * Dialogs, menus and pickers of the schedule screens render into their own portal root above the
 * shell: Primer's default root has z-index 1, under the sticky header and the grid's sticky rows.
 */
function ensureRoot(): void {
  let el = document.getElementById(NAME);
  if (!el) {
    el = document.createElement('div');
    el.id = NAME;
    Object.assign(el.style, { position: 'absolute', top: '0', left: '0', width: '100%', zIndex: '100' });
    (document.querySelector('[data-portal-root]') ?? document.body).appendChild(el);
  }
  registerPortalRoot(el, NAME);
}

export function OverlayLayer({ children }: { children: ReactNode }) {
  ensureRoot();
  return <PortalContext.Provider value={{ portalContainerName: NAME }}>{children}</PortalContext.Provider>;
}
