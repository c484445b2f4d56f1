import { useEffect, useState } from 'react';
import { Banner, Dialog, Label, SegmentedControl, Spinner } from '@primer/react';
import { useApolloClient } from '@apollo/client/react';
import { useSession } from '../../../app/auth/session';
import { useT } from '../../../app/i18n';
import { readError } from '../../../components/gql-errors';
import { displayDate } from '../../../components/master-options';
import { RichTextView } from '../../../components/rich-text/RichTextView';
import { CategoryLabel } from '../BlogCard';
import { BlogContentPreviewQuery } from './operations';
import type { PostEditor } from './use-post-editor';
import styles from './editor.module.css';

type Width = 'desktop' | 'phone';

/**
 * The post as readers will see it, before it is saved: the title, category, tags, publish date and the
 * body rendered by the server exactly as a save renders it (a body it would refuse says why here), on
 * a desktop's width or a phone's (390 px).
 */
export function PreviewDialog({ p, narrow, onClose }: { p: PostEditor; narrow: boolean; onClose(): void }) {
  const t = useT();
  const { user } = useSession();
  const apollo = useApolloClient();
  const v = p.values;
  const [width, setWidth] = useState<Width>(narrow ? 'phone' : 'desktop');
  const [html, setHtml] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      const content: Record<string, unknown> = { ...((await p.body.current?.save()) ?? { blocks: [] }) };
      try {
        const r = await apollo.query({
          query: BlogContentPreviewQuery,
          variables: { content },
          fetchPolicy: 'no-cache',
        });
        if (live) setHtml(r.data?.blogContentPreview ?? '');
      } catch (e) {
        if (live) setFailure(readError(e).message || t('err.OTHER', { name: '' }));
      }
    })();
    return () => {
      live = false;
    };
    // Once per opening: the body as it is now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const widths: { value: Width; label: string }[] = [
    { value: 'desktop', label: t('blogEdit.previewDesktop') },
    { value: 'phone', label: t('blogEdit.previewPhone') },
  ];
  return (
    <Dialog
      title={t('blogEdit.preview')}
      width="xlarge"
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[{ content: t('rec.close'), onClick: onClose }]}
    >
      <div className={styles.preview} data-testid="blog-preview">
        {!narrow && (
          <SegmentedControl aria-label={t('blogEdit.previewWidth')} size="small">
            {widths.map((w) => (
              <SegmentedControl.Button key={w.value} selected={width === w.value} onClick={() => setWidth(w.value)}>
                {w.label}
              </SegmentedControl.Button>
            ))}
          </SegmentedControl>
        )}
        {failure ? (
          <Banner variant="critical" title={t('blogEdit.previewFailed')} description={failure} />
        ) : html === null ? (
          <Spinner size="medium" srText={t('common.loading')} />
        ) : (
          <article className={styles.previewFrame} data-width={width} data-testid="blog-preview-frame">
            <h2 className={styles.previewTitle}>{v.title.trim() || t('blogEdit.previewUntitled')}</h2>
            <div className={styles.previewMeta}>
              <CategoryLabel category={v.category} />
              {v.tags.map((tag) => (
                <Label key={tag.id} variant="accent">
                  {tag.content}
                </Label>
              ))}
              <span>{p.post?.author.name ?? user.name}</span>
              <span>{displayDate(v.publishStart)}</span>
            </div>
            <RichTextView html={html} testId="blog-preview-body" />
            {v.attachment.kind !== 'none' && (
              <p className={styles.previewAttachment}>
                {t('blogEdit.attachment')}:{' '}
                {v.attachment.kind === 'stored' ? v.attachment.file.name : v.attachment.name}
              </p>
            )}
          </article>
        )}
      </div>
    </Dialog>
  );
}
