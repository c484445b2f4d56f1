import { useState } from 'react';
import { Dialog, Link } from '@primer/react';
import { DownloadIcon } from '@primer/octicons-react';
import { previewKind } from './compose';
import { type CommentText } from './comments.i18n';
import styles from './comments.module.css';

export interface PreviewFile {
  name: string;
  type: string;
  url: string;
}

/** A comment's attachment: a picture inline, a PDF in a frame (files allow framing by our own pages only), anything else as a download. */
export function AttachmentPreview({ file, text, onClose }: { file: PreviewFile; text: CommentText; onClose(): void }) {
  const kind = previewKind(file.type);
  const [broken, setBroken] = useState(false);
  return (
    <Dialog
      title={text('previewOf', { name: file.name })}
      onClose={onClose}
      width="xlarge"
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[{ content: text('close'), buttonType: 'primary', onClick: onClose }]}
    >
      <div className={styles.preview} data-testid="blog-comment-preview">
        {kind === 'image' && !broken && (
          <img src={file.url} alt={file.name} className={styles.previewImage} onError={() => setBroken(true)} />
        )}
        {kind === 'pdf' && <iframe src={file.url} title={file.name} className={styles.previewFrame} />}
        {kind === 'download' && <p>{text('noPreview')}</p>}
        {broken && (
          <p className={styles.error} role="alert">
            {text('previewMissing')}
          </p>
        )}
        <Link href={`${file.url}`} download={file.name} className={styles.download}>
          <DownloadIcon size={16} />
          {text('download')}
        </Link>
      </div>
    </Dialog>
  );
}
