import { useId, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Textarea } from '@primer/react';
import { readError } from '../../../components/gql-errors';
import { useEnterToSend } from '../../../components/comments/enter-to-send';
import { EnterHint } from '../../../components/comments/EnterHint';
import { toast } from '../../../components/Toast';
import type { CommentText } from './comments.i18n';
import { EditBlogCommentMutation } from './operations';
import styles from './comments.module.css';

/** The server's refusals worth showing as it words them (blank or too long, not the author, gone or closed). */
const SAID_BY_SERVER = new Set(['BAD_USER_INPUT', 'FORBIDDEN', 'NOT_FOUND']);

/**
 * Its author's box for changing a comment's text in place (the attachment stays): Enter saves,
 * Shift+Enter breaks the line, Escape or キャンセル leaves the text as it was. One message under the box per failure.
 */
export function CommentEditor({
  id,
  content,
  reply,
  text,
  onDone,
}: {
  id: number;
  content: string;
  reply: boolean;
  text: CommentText;
  /** Saved (true) or cancelled (false). */
  onDone(saved: boolean): void;
}) {
  const [value, setValue] = useState(content);
  const [error, setError] = useState<string | null>(null);
  const [edit, { loading }] = useMutation(EditBlogCommentMutation);
  const hintId = useId();

  const save = async () => {
    if (loading) return;
    if (!value.trim()) return setError(reply ? text('blankReply') : text('blankComment'));
    if (value.trim() === content) return onDone(false);
    setError(null);
    try {
      await edit({ variables: { id, content: value } });
      toast.success(text('editSaved'));
      onDone(true);
    } catch (e) {
      const err = readError(e);
      setError(SAID_BY_SERVER.has(err.code ?? '') ? err.message : text('editFailed'));
    }
  };
  const enterToSave = useEnterToSend(() => void save());

  return (
    <div className={styles.composer} data-testid="blog-comment-editor">
      <Textarea
        value={value}
        block
        rows={2}
        resize="vertical"
        aria-label={text('editLabel')}
        autoFocus
        validationStatus={error ? 'error' : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          if (error) setError(null);
        }}
        onKeyDownCapture={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation(); // the dialog stays open: only the edit is left
            onDone(false);
          }
        }}
        aria-describedby={hintId}
        {...enterToSave}
      />
      <EnterHint id={hintId} />
      <div className={styles.composerBar}>
        <span className={styles.chosen} />
        <Button size="small" onClick={() => onDone(false)} disabled={loading}>
          {text('cancel')}
        </Button>
        <Button
          size="small"
          variant="primary"
          onClick={() => void save()}
          loading={loading}
          data-testid="blog-comment-edit-save"
        >
          {text('save')}
        </Button>
      </div>
      {error && (
        <p className={styles.error} role="alert" data-testid="blog-comment-edit-error">
          {error}
        </p>
      )}
    </div>
  );
}
