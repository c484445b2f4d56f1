import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { setLeaveAsker } from './leave-guard';

// The dialog's code loads when a question is first asked: the first screen does not carry it.
const LeaveQuestion = lazy(() => import('./LeaveQuestion'));

/** Asks before a route change would throw unsaved edits away (see leave-guard.ts). One question at a time. */
export function LeaveGuardDialog() {
  const [open, setOpen] = useState(false);
  const answer = useRef<((leave: boolean) => void) | null>(null);
  useEffect(() => {
    setLeaveAsker(
      () =>
        new Promise<boolean>((resolve) => {
          answer.current?.(false);
          answer.current = resolve;
          setOpen(true);
        }),
    );
    return () => setLeaveAsker(null);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <LeaveQuestion
        onAnswer={(leave) => {
          answer.current?.(leave);
          answer.current = null;
          setOpen(false);
        }}
      />
    </Suspense>
  );
}
