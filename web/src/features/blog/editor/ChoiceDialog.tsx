import type { ReactNode } from 'react';
import { Dialog } from '@primer/react';
import { useT } from '../../../app/i18n';

/**
 * The frame of the page's choosing dialogs (category, tags): full screen on a phone, キャンセル and
 * 決定 below; 決定 hands the choice over (or says what is missing, inside the dialog).
 */
export function ChoiceDialog({
  title,
  width,
  testId,
  className,
  onClose,
  onDecide,
  children,
}: {
  title: string;
  width: 'medium' | 'large';
  testId: string;
  className?: string;
  onClose(): void;
  onDecide(): void;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <Dialog
      title={title}
      width={width}
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[
        { content: t('rec.dialogCancel'), onClick: onClose },
        { content: t('blogEdit.decide'), buttonType: 'primary', onClick: onDecide },
      ]}
    >
      <div data-testid={testId} className={className}>
        {children}
      </div>
    </Dialog>
  );
}
