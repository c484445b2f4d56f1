import { useId, useRef, useState } from 'react';
import { Button, Textarea } from '@primer/react';
import { useT } from '../../app/i18n';
import { readError } from '../gql-errors';
import { toast } from '../Toast';
import { useEnterToSend } from './enter-to-send';
import { EnterHint } from './EnterHint';
import styles from './comments.module.css';
import type { Mentioned } from '../mentions/mention-text';
import type { MentionSearch } from '../mentions/use-mention-picker';
import { useTextareaMentions } from '../mentions/use-textarea-mentions';

/** The server's refusals worth showing as it words them (blank or too long, not the author, gone or closed). */
const SAID_BY_SERVER = new Set(['BAD_USER_INPUT', 'FORBIDDEN', 'NOT_FOUND']);

/**
 * Its author's box for changing a comment's text in place, on a post or a profile (`save` sends it;
 * an attachment stays): Enter saves, Shift+Enter breaks the line, Escape or キャンセル leaves the
 * text as it was. One message under the box per failure.
 */
export function CommentEditor({
  content,
  reply,
  save,
  onDone,
  mentions,
  testId = 'comment-editor',
}: {
  content: string;
  reply: boolean;
  /** `mentionIds`: with `mentions`, the people the text still writes out (@氏名). */
  save(content: string, mentionIds?: number[]): Promise<unknown>;
  /** Whom @ lists, and whom the text mentions now; without it the box has no mentions. */
  mentions?: { search: MentionSearch; current: Mentioned[] };
  /** Saved (true) or left (false). */
  onDone(saved: boolean): void;
  testId?: string;
}) {
  const t = useT();
  const [value, setValue] = useState(content);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const hintId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const mention = useTextareaMentions(box, value, setValue, mentions?.search, mentions?.current);

  const submit = async () => {
    if (saving) return;
    if (!value.trim()) return setError(t(reply ? 'comments.blankReply' : 'comments.blankComment'));
    if (value.trim() === content) return onDone(false);
    setError(null);
    setSaving(true);
    try {
      await save(value, mentions ? mention.mentionIds(value) : undefined);
      toast.success(t('comments.editSaved'));
      onDone(true);
    } catch (e) {
      const err = readError(e);
      setError(SAID_BY_SERVER.has(err.code ?? '') ? err.message : t('comments.editFailed'));
    } finally {
      setSaving(false);
    }
  };
  const enterToSave = useEnterToSend(() => void submit());

  return (
    <div className={styles.editor} data-testid={testId}>
      <Textarea
        ref={box}
        value={value}
        block
        rows={2}
        resize="vertical"
        aria-label={t('comments.editLabel')}
        autoFocus
        validationStatus={error ? 'error' : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          if (error) setError(null);
        }}
        aria-describedby={hintId}
        {...mention.boxProps}
        onKeyDownCapture={(e) => {
          mention.boxProps.onKeyDownCapture?.(e); // an open list of people takes its keys first
          if (e.isPropagationStopped()) return;
          if (e.key === 'Escape') {
            e.stopPropagation(); // the dialog stays open: only the edit is left
            onDone(false);
          }
        }}
        {...enterToSave}
      />
      {mention.menu}
      <EnterHint id={hintId} mentions={!!mentions} />
      <div className={styles.editorBar}>
        <Button size="small" onClick={() => onDone(false)} disabled={saving}>
          {t('comments.cancel')}
        </Button>
        <Button
          size="small"
          variant="primary"
          onClick={() => void submit()}
          loading={saving}
          data-testid={`${testId}-save`}
        >
          {t('comments.save')}
        </Button>
      </div>
      {error && (
        <p className={styles.editorError} role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** 「編集済み」 beside an edited comment's time, the edit's own time on hover. */
export function EditedMark({ at, format }: { at: string; format(iso: string): string }) {
  const t = useT();
  return (
    <time
      className={styles.edited}
      dateTime={at}
      title={t('comments.editedAt', { time: format(at) })}
      data-testid="comment-edited"
    >
      {t('comments.edited')}
    </time>
  );
}
