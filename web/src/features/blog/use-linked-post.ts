import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import type { BlogCardPost } from './BlogCard';
import { BlogPostQuery } from './operations';

/**
 * A post named in the URL (`?post=ID`, with `&comment=ID` for a comment or reply: what a
 * notification links to) is opened once read: in the detail dialog, or with `comment` in its
 * comments dialog; the parameters then leave the URL, so closing the dialog does not open it again.
 * A post the viewer may not see (NOT_FOUND) calls `onMissing`.
 */
export function useLinkedPost(
  open: (p: BlogCardPost) => void,
  openComments: (p: BlogCardPost) => void,
  onMissing: () => void,
) {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('post'));
  const toComments = params.has('comment');
  const linked = Number.isInteger(id) && id > 0 ? id : null;
  const { data, error } = useQuery(BlogPostQuery, {
    variables: { id: linked ?? 0 },
    skip: linked === null,
    fetchPolicy: 'network-only',
  });

  useEffect(() => {
    if (linked === null || (!data && !error)) return;
    if (data?.blogPost) (toComments ? openComments : open)(data.blogPost);
    else onMissing();
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        next.delete('post');
        next.delete('comment');
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer for the linked post
  }, [data, error, linked]);
}
