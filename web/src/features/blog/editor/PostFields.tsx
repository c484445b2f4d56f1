import { useBlogMentions } from '../mentions';
import { useId } from 'react';
import { Button, Label, TextInput } from '@primer/react';
import { EyeIcon, ListUnorderedIcon, XIcon } from '@primer/octicons-react';
import { useSession } from '../../../app/auth/session';
import { Field } from '../../../components/Field';
import { ViewItem } from '../../../components/FormFields';
import { displayDate } from '../../../components/master-options';
import { CategoryLabel } from '../BlogCard';
import { AttachmentField } from './AttachmentField';
import { FieldError, GROUP_LABEL } from './field-parts';
import { RichTextEditor } from '../../../components/rich-text/RichTextEditor';
import { BLOG_IMAGES } from './blog-images';
import type { PostDocument } from './post-form';
import type { PostEditor } from './use-post-editor';
import styles from './editor.module.css';
import { RichTextView } from '../../../components/rich-text/RichTextView';

/** A value chosen in a dialog (category, tags): what is chosen, a 選択 button, a clear button. */
function ChosenField({
  label,
  error,
  chooseLabel,
  clearLabel,
  onChoose,
  onClear,
  children,
  testId,
}: {
  label: string;
  error?: string;
  chooseLabel: string;
  clearLabel?: string;
  onChoose(): void;
  onClear?(): void;
  children: React.ReactNode;
  testId: string;
}) {
  const id = useId();
  return (
    <div className={styles.block} role="group" aria-labelledby={`${id}-label`} data-testid={testId}>
      <span id={`${id}-label`} className={GROUP_LABEL}>
        {label}
      </span>
      <div
        className={styles.chosen}
        data-invalid={error ? true : undefined}
        aria-invalid={error ? true : undefined}
        tabIndex={error ? -1 : undefined}
      >
        <span className={styles.chosenValue}>{children}</span>
        <Button
          size="small"
          leadingVisual={ListUnorderedIcon}
          onClick={onChoose}
          aria-label={`${label}: ${chooseLabel}`}
        >
          {chooseLabel}
        </Button>
        {onClear && clearLabel && (
          <Button size="small" variant="invisible" onClick={onClear} aria-label={`${label}: ${clearLabel}`}>
            <XIcon />
          </Button>
        )}
      </div>
      <FieldError text={error} />
    </div>
  );
}

/** Author, edit date, title, category, tags, the body and the attachment. */
export function PostFields({
  p,
  onCategory,
  onTags,
  onPreview,
}: {
  p: PostEditor;
  onCategory(): void;
  onTags(): void;
  onPreview?(): void;
}) {
  const { t, values: v, editing, fieldErrors: fe, post } = p;
  const { user } = useSession();
  const bodyErrorId = useId();
  const mentions = useBlogMentions({ categoryId: v.category?.id });
  const author = post?.author.name ?? user.name;
  const editedAt = post ? displayDate(post.updatedAt) : '';
  const tags = v.tags.length ? (
    <span className={styles.tags}>
      {v.tags.map((tag) => (
        <Label key={tag.id} variant="accent" data-testid="blog-tag">
          {tag.content}
        </Label>
      ))}
    </span>
  ) : null;

  return (
    <>
      <dl className={styles.viewGrid}>
        <ViewItem label={t('blogEdit.author')} value={author} testId="blog-author" />
        {post && <ViewItem label={t('blogEdit.updatedAt')} value={editedAt} testId="blog-updated-at" />}
      </dl>
      {editing ? (
        <Field label={t('blogEdit.title')} required error={fe.title}>
          {(c) => (
            <TextInput {...c} block value={v.title} maxLength={200} onChange={(e) => p.set('title', e.target.value)} />
          )}
        </Field>
      ) : (
        <dl className={styles.viewGrid}>
          <ViewItem label={t('blogEdit.title')} value={v.title} wide />
        </dl>
      )}
      {editing ? (
        <div className={styles.pair}>
          <ChosenField
            label={t('blog.category')}
            error={fe.category}
            chooseLabel={t('blogEdit.choose')}
            onChoose={onCategory}
            testId="blog-category-field"
          >
            {v.category ? (
              <CategoryLabel category={v.category} />
            ) : (
              <span className={styles.muted}>{t('rec.unset')}</span>
            )}
          </ChosenField>
          <ChosenField
            label={t('blog.filter.tag')}
            error={fe.tags}
            chooseLabel={t('blogEdit.choose')}
            clearLabel={t('blogEdit.clearTags')}
            onChoose={onTags}
            onClear={v.tags.length ? () => p.set('tags', []) : undefined}
            testId="blog-tags-field"
          >
            {tags ?? <span className={styles.muted}>{t('rec.none')}</span>}
          </ChosenField>
        </div>
      ) : (
        <dl className={styles.viewGrid}>
          <ViewItem label={t('blog.category')} value={v.category ? <CategoryLabel category={v.category} /> : null} />
          <ViewItem label={t('blog.filter.tag')} value={tags} />
        </dl>
      )}
      <div className={styles.block}>
        <div className={styles.bodyHead}>
          <span className={GROUP_LABEL}>{t('blogEdit.content')}</span>
          {editing && onPreview && (
            <Button size="small" leadingVisual={EyeIcon} onClick={onPreview} data-testid="blog-preview-open">
              {t('blogEdit.preview')}
            </Button>
          )}
        </div>
        {editing ? (
          <>
            <RichTextEditor
              ref={p.body}
              initial={(post?.content as PostDocument | undefined) ?? null}
              japanese={p.locale === 'ja'}
              placeholder={t('blogEdit.contentPlaceholder')}
              label={t('blogEdit.content')}
              loadingText={t('blogEdit.editorLoading')}
              failedText={t('blogEdit.editorFailed')}
              invalid={!!fe.content}
              describedBy={fe.content ? bodyErrorId : undefined}
              images={BLOG_IMAGES}
              testId="blog-editor"
              mentions={mentions}
              onChange={p.bodyEdited}
            />
            <FieldError id={bodyErrorId} text={fe.content} />
          </>
        ) : (
          <RichTextView html={post?.contentHtml ?? ''} className={styles.viewContent} testId="blog-content" />
        )}
      </div>
      <AttachmentField
        value={v.attachment}
        processing={p.processing}
        error={fe.attachment}
        readOnly={!editing}
        onChoose={(f) => void p.chooseFile(f)}
        onRemove={p.removeFile}
      />
    </>
  );
}
