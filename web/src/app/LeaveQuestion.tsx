import { ConfirmationDialog } from '@primer/react';
import { useT } from './i18n';

/** 「保存していない変更があります」: leave (the edits are lost) or keep editing. */
export default function LeaveQuestion({ onAnswer }: { onAnswer(leave: boolean): void }) {
  const t = useT();
  return (
    <ConfirmationDialog
      title={t('leave.title')}
      onClose={(gesture) => onAnswer(gesture === 'confirm')}
      confirmButtonContent={t('leave.confirm')}
      cancelButtonContent={t('leave.stay')}
      confirmButtonType="danger"
    >
      {t('leave.body')}
    </ConfirmationDialog>
  );
}
