import { useRef } from 'react';
import { useSubscription } from '@apollo/client/react';
import { ProfileChangedSubscription } from './operations';

/**
 * Calls `onChange` when a profile changes anywhere (or the one of `profileId`): a save, a like, a
 * comment. The screen then reads again through the server, which decides what the viewer may see
 * (an address outside its visibility never travels in the event).
 */
export function useProfileLive(
  profileId: number | null,
  onChange: (change: { type: string; profileId: number; actorId: number | null }) => void,
  skip = false,
): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useSubscription(ProfileChangedSubscription, {
    variables: { profileId },
    skip,
    onData: ({ data }) => {
      const change = data.data?.profileChanged;
      if (change) latest.current(change);
    },
  });
}
