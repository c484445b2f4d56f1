import { ConfirmationDialog } from '@primer/react';
import { useT } from './i18n';

/** 「保存していない変更があります」: leave (the edits are lost) or keep editing. `closing`: a dialog is closing, not the page. */
export default function LeaveQuestion({
  onAnswer,
  closing = false,
}: {
  onAnswer(leave: boolean): void;
  closing?: boolean;
}) {
  const t = useT();
  return (
    <ConfirmationDialog
      title={t('leave.title')}
      onClose={(gesture) => onAnswer(gesture === 'confirm')}
      confirmButtonContent={t(closing ? 'leave.closeConfirm' : 'leave.confirm')}
      cancelButtonContent={t('leave.stay')}
      confirmButtonType="danger"
    >
      {t(closing ? 'leave.closeBody' : 'leave.body')}
    </ConfirmationDialog>
  );
}
