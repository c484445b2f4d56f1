import { useI18n, type Locale } from '../../../app/i18n';

/**
 * The comments dialog's words, in its own lazily loaded chunk (the initial JS budget). The messages
 * are spec §5 and §8's, in Japanese: blank comment/reply, refused deletion, the failed load, send and
 * delete, their successes, and the preview's.
 */
const TEXT = {
  ja: {
    comments: 'コメント',
    commentsOf: '{title} のコメント',
    openComments: 'コメント {count} 件を開く',
    noComments: 'まだコメントはありません。',
    closed: 'この投稿はコメントを受け付けていません。',
    placeholder: 'コメントを入力',
    replyPlaceholder: '返信を入力',
    commentLabel: 'コメント',
    replyLabel: '{name} さんへの返信',
    reply: '返信',
    cancelReply: '返信をやめる',
    send: '送信',
    sending: '送信しています…',
    emoji: '絵文字',
    emojiList: '絵文字を選ぶ',
    attach: 'ファイルを添付',
    removeAttachment: '添付を外す',
    attachmentRules: 'txt・pdf・png・jpg・jpeg・gif の1ファイル、5 MB まで',
    actions: '{name} さんのコメントの操作',
    delete: '削除',
    deleteTitle: 'コメントを削除しますか？',
    deleteBody: 'このコメントを削除します。返信も一緒に削除され、元に戻せません。',
    deleteBodyReply: 'この返信を削除します。元に戻せません。',
    cancel: 'キャンセル',
    blankComment: 'コメントを入力してください。',
    blankReply: '返信を入力してください。',
    fileProcessing: 'ファイルの処理が終わるまでお待ちください。',
    loadFailed: 'コメントを読み込めませんでした。',
    retry: '再読み込み',
    loading: '読み込み中…',
    moreComments: 'コメントをもっと見る',
    moreReplies: '返信をさらに表示（残り {count} 件）',
    sendFailed: 'コメントを送信できませんでした。時間をおいて再度お試しください。',
    replyFailed: '返信を送信できませんでした。時間をおいて再度お試しください。',
    deleteFailed: 'コメントを削除できませんでした。時間をおいて再度お試しください。',
    deleteForbidden: 'このコメントを削除する権限がありません。',
    sent: 'コメントを送信しました。',
    replied: '返信を送信しました。',
    deleted: 'コメントを削除しました。',
    preview: 'プレビュー',
    previewOf: '{name} のプレビュー',
    download: 'ダウンロード',
    noPreview: 'この形式はプレビューできません。ダウンロードして開いてください。',
    previewMissing: 'プレビューするファイルのデータがありません。',
    close: '閉じる',
  },
  en: {
    comments: 'Comments',
    commentsOf: 'Comments on {title}',
    openComments: 'Open {count} comments',
    noComments: 'No comments yet.',
    closed: 'This post does not accept comments.',
    placeholder: 'Write a comment',
    replyPlaceholder: 'Write a reply',
    commentLabel: 'Comment',
    replyLabel: 'Reply to {name}',
    reply: 'Reply',
    cancelReply: 'Cancel reply',
    send: 'Send',
    sending: 'Sending…',
    emoji: 'Emoji',
    emojiList: 'Choose an emoji',
    attach: 'Attach a file',
    removeAttachment: 'Remove the file',
    attachmentRules: 'One txt, pdf, png, jpg, jpeg or gif file, up to 5 MB',
    actions: "Actions for {name}'s comment",
    delete: 'Delete',
    deleteTitle: 'Delete this comment?',
    deleteBody: 'This comment and its replies will be deleted. This cannot be undone.',
    deleteBodyReply: 'This reply will be deleted. This cannot be undone.',
    cancel: 'Cancel',
    blankComment: 'Comment must not be blank.',
    blankReply: 'Reply must not be blank.',
    fileProcessing: 'Please wait until the file has been processed.',
    loadFailed: 'Failed to load comments.',
    retry: 'Reload',
    loading: 'Loading…',
    moreComments: 'More comments',
    moreReplies: 'Show more replies ({count} more)',
    sendFailed: 'Failed to send the comment. Please try again later.',
    replyFailed: 'Failed to send the reply. Please try again later.',
    deleteFailed: 'Failed to delete the comment. Please try again later.',
    deleteForbidden: 'You may not delete this comment.',
    sent: 'Comment sent.',
    replied: 'Reply sent.',
    deleted: 'Comment deleted.',
    preview: 'Preview',
    previewOf: 'Preview of {name}',
    download: 'Download',
    noPreview: 'This file type cannot be previewed. Download it to open it.',
    previewMissing: 'No file data to preview.',
    close: 'Close',
  },
} satisfies Record<Locale, Record<string, string>>;

export type CommentText = (typeof TEXT)['ja'];

export function useCommentText(): CommentText {
  return TEXT[useI18n().locale];
}

/** `{name}`-style placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
