import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Dialog } from '@primer/react';

export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
}

/**
 * A yes/no question in a Primer dialog: `await confirm({...})` resolves true for the confirm
 * button, false for cancel, Escape or the close button. Render `dialog` somewhere in the screen.
 */
export function useConfirm(): { confirm(req: ConfirmRequest): Promise<boolean>; dialog: ReactNode } {
  const [req, setReq] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback((r: ConfirmRequest) => {
    resolver.current?.(false);
    setReq(r);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);
  const close = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setReq(null);
  };
  const dialog = req ? (
    <Dialog
      role="alertdialog"
      title={req.title}
      width="medium"
      onClose={() => close(false)}
      footerButtons={[
        { content: req.cancelLabel, onClick: () => close(false) },
        {
          content: req.confirmLabel,
          buttonType: req.danger ? 'danger' : 'primary',
          onClick: () => close(true),
          autoFocus: true,
        },
      ]}
    >
      {req.body}
    </Dialog>
  ) : null;
  return { confirm, dialog };
}
