import { Link } from 'react-router-dom';
import { profilePath } from '../../app/links';
import { useNarrow } from '../../app/use-narrow';
import { splitMentions, type Mentioned } from './mention-text';
import styles from './mentions.module.css';

/** A plain text (a comment) with each @氏名 it mentions as a link to that person's profile. */
export function MentionedText({ text, mentions }: { text: string; mentions: Mentioned[] }) {
  const narrow = useNarrow();
  if (!mentions.length) return <>{text}</>;
  return (
    <>
      {splitMentions(text, mentions).map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <Link key={i} to={profilePath(part.id, narrow)} className={styles.mention} data-testid="mention-link">
            @{part.name}
          </Link>
        ),
      )}
    </>
  );
}
