import { useId, useLayoutEffect, useRef, useState } from 'react';
import { Button, IconButton, Spinner, Textarea } from '@primer/react';
import { PaperAirplaneIcon, PaperclipIcon, XIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
import { toast } from '../../../components/Toast';
import { ATTACHMENT_ACCEPT, checkAttachment, formatBytes, readAsDataUrl } from '../editor/attachment';
import { SaveRefused, sendJson } from '../editor/save-post';
import { insertAtCaret } from './compose';
import { useEnterToSend } from '../../../components/comments/enter-to-send';
import { EnterHint } from '../../../components/comments/EnterHint';
import { EmojiPicker } from './EmojiPicker';
import { useBlogMentions } from '../mentions';
import { useTextareaMentions } from '../../../components/mentions/use-textarea-mentions';
import type { CommentText } from './comments.i18n';
import styles from './comments.module.css';
import { FileName } from '../../../components/FileName';

interface ChosenFile {
  name: string;
  size: number;
  dataUrl: string;
}

/** The server's refusals worth showing as it words them (validation, rights, a closed post); anything else is the §8 failure. */
const SAID_BY_SERVER = new Set(['BAD_USER_INPUT', 'FORBIDDEN', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE']);

/**
 * A comment box (the main one, or a reply box under a comment): text, an emoji picker that inserts at
 * the caret, one attachment (the post rules: txt, pdf, png, jpg, jpeg, gif up to 5 MB; the server
 * checks again by content) and 送信. It posts through `POST /api/comments` (the attachment is a data
 * URL, which GraphQL's 2 MB bodies cannot carry). Every box sends on Enter and breaks the line on
 * Shift+Enter (enter-to-send.ts), as the hint under it says. Each failure shows one message under the box.
 */
export function CommentComposer({
  postId,
  parentId,
  text,
  label,
  placeholder,
  autoFocus,
  onSent,
}: {
  postId: number;
  parentId: number | null;
  text: CommentText;
  label: string;
  placeholder: string;
  autoFocus?: boolean;
  onSent(): void;
}) {
  const t = useT();
  const reply = parentId !== null;
  const [value, setValue] = useState('');
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [processing, setProcessing] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // Where the caret goes once the text with an emoji is rendered.
  const caret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caret.current === null || !box.current) return;
    box.current.focus();
    box.current.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [value]);

  const choose = async (chosen: File) => {
    const refusal = checkAttachment(chosen);
    if (refusal)
      return setError(
        t(
          refusal === 'type'
            ? 'blogEdit.fileType'
            : refusal === 'size'
              ? 'blogEdit.fileSize'
              : 'blogEdit.fileUnreadable',
        ),
      );
    setError(null);
    setProcessing(true);
    try {
      setFile({ name: chosen.name, size: chosen.size, dataUrl: await readAsDataUrl(chosen) });
    } catch {
      setError(t('blogEdit.fileUnreadable'));
    } finally {
      setProcessing(false);
    }
  };

  const send = async () => {
    if (sending) return;
    if (processing) return setError(text('fileProcessing'));
    if (!value.trim()) return setError(reply ? text('blankReply') : text('blankComment'));
    setError(null);
    setSending(true);
    try {
      await sendJson('/api/comments', 'POST', {
        blog_id: postId,
        content: value,
        parent_comment_id: parentId,
        attachment: file?.dataUrl ?? null,
        attachment_filename: file?.name ?? null,
        mention_ids: mentions.mentionIds(value),
      });
      setValue('');
      mentions.reset();
      setFile(null);
      toast.success(reply ? text('replied') : text('sent'));
      onSent();
    } catch (e) {
      const said = e instanceof SaveRefused && SAID_BY_SERVER.has(e.code) && e.message;
      setError(said || (reply ? text('replyFailed') : text('sendFailed')));
    } finally {
      setSending(false);
    }
  };

  const mentions = useTextareaMentions(box, value, setValue, useBlogMentions({ postId }));
  const enterToSend = useEnterToSend(() => void send());
  const hintId = useId();

  const pick = (emoji: string) => {
    const el = box.current;
    const next = insertAtCaret(value, el?.selectionStart ?? value.length, el?.selectionEnd ?? value.length, emoji);
    caret.current = next.caret;
    setValue(next.text);
  };

  return (
    <div className={styles.composer} data-testid={reply ? 'blog-reply-box' : 'blog-comment-box'}>
      <Textarea
        ref={box}
        value={value}
        block
        rows={reply ? 2 : 3}
        resize="vertical"
        aria-label={label}
        placeholder={placeholder}
        autoFocus={autoFocus}
        validationStatus={error ? 'error' : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          if (error) setError(null);
        }}
        aria-describedby={hintId}
        {...mentions.boxProps}
        {...enterToSend}
      />
      {mentions.menu}
      <EnterHint id={hintId} mentions />
      <div className={styles.composerBar}>
        <EmojiPicker text={text} box={box} onPick={pick} />
        <IconButton
          icon={PaperclipIcon}
          aria-label={text('attach')}
          variant="invisible"
          size="small"
          disabled={processing || sending}
          onClick={() => fileInput.current?.click()}
        />
        <input
          ref={fileInput}
          type="file"
          accept={ATTACHMENT_ACCEPT}
          hidden
          data-testid="blog-comment-file"
          aria-label={text('attach')}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (chosen) void choose(chosen);
          }}
        />
        <span className={styles.chosen}>
          {processing && <Spinner size="small" srText={text('fileProcessing')} />}
          {file && (
            <>
              <PaperclipIcon size={14} />
              <FileName name={file.name} className={styles.chosenName} testId="blog-comment-chosen" />
              <span className={styles.muted}>{formatBytes(file.size)}</span>
              <IconButton
                icon={XIcon}
                aria-label={text('removeAttachment')}
                variant="invisible"
                size="small"
                onClick={() => setFile(null)}
              />
            </>
          )}
        </span>
        <Button
          size="small"
          variant="primary"
          leadingVisual={PaperAirplaneIcon}
          onClick={() => void send()}
          loading={sending}
          data-testid="blog-comment-send"
        >
          {text('send')}
        </Button>
      </div>
      {error && (
        <p className={styles.error} role="alert" data-testid="blog-comment-error">
          {error}
        </p>
      )}
    </div>
  );
}
