import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { Dialog, Spinner } from '@primer/react';
import { useT } from '../../app/i18n';
import type { LiveChange } from './live';
import type { DialogState } from './use-schedule-screen';

const loadDialog = () => import('./ScheduleDialog');
const ScheduleDialog = lazy(loadDialog);

/** Loads the dialog chunk once the screen is idle, so the first click opens it at once. */
export function usePreloadDialog() {
  useEffect(() => {
    const w = window as Window & { requestIdleCallback?: (cb: () => void) => number };
    if (w.requestIdleCallback) w.requestIdleCallback(() => void loadDialog());
    else setTimeout(() => void loadDialog(), 1500);
  }, []);
}

function LoadingBody({ label, shown }: { label: string; shown: { current: boolean } }) {
  shown.current = true; // the dialog chunk was not there yet
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 32 }}>
      <Spinner srText={label} />
    </div>
  );
}

/**
 * Gives the focus back to the control that opened the dialog (a grid cell's add button, an entry)
 * when the dialog closes and the focus was left nowhere: Primer's own return does not survive the
 * stand-in dialog being replaced, nor the full-screen dialog of the narrow layout.
 */
function useReturnFocus(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before the dialog's focus trap (a passive effect) moves the focus.
  useLayoutEffect(() => {
    const el = document.activeElement;
    if (open && !opener.current && el instanceof HTMLElement && el !== document.body) opener.current = el;
  }, [open]);
  useEffect(() => {
    if (open) return;
    const el = opener.current;
    opener.current = null;
    if (el?.isConnected && (document.activeElement === document.body || document.activeElement === null)) el.focus();
  }, [open]);
}

export function ScheduleDialogHost({
  state,
  me,
  narrow,
  onClose,
  onChanged,
}: {
  state: DialogState | null;
  me: { id: number; name: string };
  narrow: boolean;
  onClose(): void;
  onChanged(change: LiveChange): void;
}) {
  const t = useT();
  const standIn = useRef(false);
  useReturnFocus(state !== null);
  if (!state) return null;
  return (
    <Suspense
      fallback={
        <Dialog
          title={state.kind === 'create' ? t('schedules.dialog.createTitle') : t('schedules.dialog.detailTitle')}
          onClose={onClose}
          width="xlarge"
        >
          <LoadingBody label={t('common.loading')} shown={standIn} />
        </Dialog>
      }
    >
      <ScheduleDialog
        key={state.kind === 'create' ? `new-${state.date}-${state.attendee?.id ?? ''}` : `id-${state.id}`}
        state={state}
        me={me}
        narrow={narrow}
        onClose={onClose}
        onChanged={onChanged}
        // The stand-in was on screen: the real dialog replaces it without a second entrance.
        standIn={standIn}
      />
    </Suspense>
  );
}
