import { useMutation } from '@apollo/client/react';
import { toast } from '../../components/Toast';
import { LikeProfileMutation } from './operations';

/** Toggles the viewer's like of a profile; the answer (count, likedByMe) lands in the cache, so every view of it updates. */
export function useLikeProfile(failed: string) {
  const [like, { loading }] = useMutation(LikeProfileMutation);
  return {
    busy: loading,
    toggle: (p: { id: number; likedByMe: boolean }) =>
      like({ variables: { id: p.id, liked: !p.likedByMe } }).catch(() => toast.error(failed)),
  };
}
