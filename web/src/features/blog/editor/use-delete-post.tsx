import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { useNavigate } from 'react-router-dom';
import { defineCatalog, useCatalog } from '../../../app/i18n';
import { useConfirm } from '../../../components/ConfirmDialog';
import { readError } from '../../../components/gql-errors';
import { toast } from '../../../components/Toast';
import { DeleteBlogPostMutation } from './operations';

/** The post page's delete words, kept in the editor chunk (the initial JS budget). */
const DELETE_POST = defineCatalog({
  ja: {
    button: '削除',
    title: '投稿を削除しますか？',
    body: '「{title}」を削除します。コメント、いいね、添付ファイルも削除され、元に戻せません。',
    confirm: '削除する',
    cancel: 'キャンセル',
    deleted: '投稿を削除しました',
    failed: '投稿を削除できませんでした。',
  },
  en: {
    button: 'Delete',
    title: 'Delete this post?',
    body: '“{title}” will be deleted with its comments, likes and attachment. This cannot be undone.',
    confirm: 'Delete',
    cancel: 'Cancel',
    deleted: 'Post deleted',
    failed: 'The post could not be deleted.',
  },
});

/**
 * 削除 on the post page (its author, or 管理者 / システム管理者: the server's canDelete and its
 * check): asks first, then deletes and goes back to the list; a refusal says why and stays.
 */
export function useDeletePost(
  post: { id: number; title: string } | null | undefined,
  o: { list: string; leaveOnPurpose(go: () => void): void },
) {
  const w = useCatalog(DELETE_POST);
  const navigate = useNavigate();
  const { confirm, dialog } = useConfirm();
  const [deleting, setDeleting] = useState(false);
  const [run] = useMutation(DeleteBlogPostMutation);

  const remove = async () => {
    if (!post || deleting) return;
    const ok = await confirm({
      title: w('title'),
      body: w('body', { title: post.title }),
      confirmLabel: w('confirm'),
      cancelLabel: w('cancel'),
      danger: true,
    });
    if (!ok) return;
    setDeleting(true);
    try {
      await run({ variables: { id: post.id } });
      toast.success(w('deleted'));
      o.leaveOnPurpose(() => navigate(o.list));
    } catch (e) {
      toast.error(w('failed'), readError(e).message || undefined);
      setDeleting(false);
    }
  };
  return { label: w('button'), remove, deleting, dialog };
}
