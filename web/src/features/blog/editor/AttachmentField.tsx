import { useId, useRef } from 'react';
import { Button, Link, Spinner } from '@primer/react';
import { FileIcon, PaperclipIcon, XIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
import { ATTACHMENT_ACCEPT, formatBytes, type AttachmentState } from './attachment';
import { CAPTION, FieldError, GROUP_LABEL } from './field-parts';
import styles from './editor.module.css';
import { FileName } from '../../../components/FileName';

/** What is attached now: the stored file (its thumbnail or a link), a file just chosen, or nothing. */
function Current({ value }: { value: AttachmentState }) {
  const t = useT();
  if (value.kind === 'none') return <span className={styles.muted}>{t('blogEdit.attachmentNone')}</span>;
  if (value.kind === 'new') {
    return (
      <span className={styles.fileRow} data-testid="blog-attachment-current">
        {value.type.startsWith('image/') ? (
          <img src={value.dataUrl} alt={value.name} className={styles.fileThumb} />
        ) : (
          <FileIcon size={16} />
        )}
        <FileName name={value.name} className={styles.fileName} />
        <span className={styles.muted}>{t('blogEdit.attachmentNew', { size: formatBytes(value.size) })}</span>
      </span>
    );
  }
  const f = value.file;
  return (
    <span className={styles.fileRow} data-testid="blog-attachment-current">
      {f.thumbnailUrl ? (
        <a href={f.url} target="_blank" rel="noopener noreferrer">
          <img src={f.thumbnailUrl} alt={f.name} className={styles.fileThumb} />
        </a>
      ) : (
        <FileIcon size={16} />
      )}
      <Link href={f.url} target="_blank" rel="noopener noreferrer" className={styles.fileName}>
        <FileName name={f.name} />
      </Link>
      <span className={styles.muted}>{formatBytes(f.size)}</span>
    </span>
  );
}

/** 添付ファイル: one file (txt, pdf, png, jpg, jpeg, gif; 5 MB), chosen, replaced or removed. */
export function AttachmentField({
  value,
  processing,
  error,
  readOnly,
  onChoose,
  onRemove,
}: {
  value: AttachmentState;
  processing: boolean;
  error?: string;
  readOnly: boolean;
  onChoose(file: File): void;
  onRemove(): void;
}) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className={styles.block} role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className={GROUP_LABEL}>
        {t('blogEdit.attachment')}
      </span>
      <div className={styles.attachment}>
        {!(processing && value.kind === 'none') && <Current value={value} />}
        {processing && (
          <span className={styles.fileRow} data-testid="blog-attachment-processing">
            <Spinner size="small" srText={null} />
            {t('blogEdit.attachmentProcessing')}
          </span>
        )}
        {!readOnly && (
          <span className={styles.fileButtons}>
            <Button
              size="small"
              leadingVisual={PaperclipIcon}
              onClick={() => input.current?.click()}
              disabled={processing}
            >
              {value.kind === 'none' ? t('blogEdit.attachmentChoose') : t('blogEdit.attachmentReplace')}
            </Button>
            {value.kind !== 'none' && (
              <Button size="small" variant="invisible" leadingVisual={XIcon} onClick={onRemove} disabled={processing}>
                {t('blogEdit.attachmentRemove')}
              </Button>
            )}
            <input
              ref={input}
              type="file"
              accept={ATTACHMENT_ACCEPT}
              hidden
              data-testid="blog-attachment-input"
              aria-label={t('blogEdit.attachmentChoose')}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) onChoose(file);
              }}
            />
          </span>
        )}
      </div>
      {!readOnly && <p className={CAPTION}>{t('blogEdit.attachmentRules')}</p>}
      <FieldError text={error} alert />
    </div>
  );
}
