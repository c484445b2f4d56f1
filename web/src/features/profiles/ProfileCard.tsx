import { useNavigate } from 'react-router-dom';
import { IconButton, Label } from '@primer/react';
import {
  CommentIcon,
  HeartFillIcon,
  HeartIcon,
  LocationIcon,
  LockIcon,
  MailIcon,
  DeviceMobileIcon,
} from '@primer/octicons-react';
import { Link } from 'react-router-dom';
import { useCatalog } from '../../app/i18n';
import { Avatar } from '../../components/Avatar';
import type { ProfileCardFieldsFragment } from '../../gql/graphql';
import { matches } from './links';
import { profilePath } from '../../app/links';
import { PROFILE } from './profiles.i18n';
import { useLikeProfile } from './use-like';
import styles from './profiles.module.css';
import { RichTextView } from '../../components/rich-text/RichTextView';

/**
 * One profile in the list: face, name, title, department, how to reach them (address and phone as
 * far as their owner lets the viewer see: the server sends null otherwise), the about-me text and
 * the skills and languages, those the search found marked. A double click opens the profile (a click
 * in the narrow layout); the heart likes, the speech bubble opens the comments.
 */
export function ProfileCard({
  profile: p,
  words,
  narrow,
}: {
  profile: ProfileCardFieldsFragment;
  words: readonly string[];
  narrow: boolean;
}) {
  const tp = useCatalog(PROFILE);
  const navigate = useNavigate();
  const { toggle } = useLikeProfile(tp('likeFailed'));
  const href = profilePath(p.id, narrow);
  const chips = [...p.skills, ...p.languages];
  return (
    <li
      className={styles.card}
      data-testid="profile-card"
      data-profile-id={p.id}
      onDoubleClick={() => navigate(href)}
      onClick={(e) => {
        if (narrow && !(e.target as HTMLElement).closest('button, a')) navigate(href);
      }}
    >
      <div className={styles.cardHead}>
        <Avatar name={p.name} size={48} src={p.avatar?.thumbnailUrl} />
        <div className={styles.cardWho}>
          <Link to={href} className={styles.cardName} aria-label={tp('open', { name: p.name })}>
            {p.name}
          </Link>
          {p.status === 'RETIRED' && <Label variant="secondary">{tp('retired')}</Label>}
          <span className={styles.muted}>{[p.title, p.departmentName].filter(Boolean).join('・')}</span>
        </div>
      </div>
      <dl className={styles.contact}>
        {p.email && (
          <div>
            <dt>
              <MailIcon aria-label={tp('email')} />
            </dt>
            <dd>
              <a href={`mailto:${p.email}`}>{p.email}</a>
            </dd>
          </div>
        )}
        <div>
          <dt>
            <LocationIcon aria-label={tp('address')} />
          </dt>
          <dd>{p.address ? p.address : <Hidden text={p.address === null ? tp('hidden') : tp('empty')} />}</dd>
        </div>
        <div>
          <dt>
            <DeviceMobileIcon aria-label={tp('phone')} />
          </dt>
          <dd>
            {p.phone ? (
              <a href={`tel:${p.phone}`}>{p.phone}</a>
            ) : (
              <Hidden text={p.phone === null ? tp('hidden') : tp('empty')} />
            )}
          </dd>
        </div>
      </dl>
      {chips.length > 0 && (
        <ul className={styles.chips} aria-label={`${tp('skills')}・${tp('languages')}`}>
          {chips.map((c, i) => (
            <li
              key={`${i}-${c}`}
              className={matches(c, words) ? styles.chipHit : styles.chip}
              data-hit={matches(c, words) || undefined}
            >
              {c}
            </li>
          ))}
        </ul>
      )}
      {p.aboutMeHtml && <RichTextView html={p.aboutMeHtml} className={styles.cardAbout} />}
      <div className={styles.cardActions}>
        <IconButton
          icon={p.likedByMe ? HeartFillIcon : HeartIcon}
          aria-label={tp(p.likedByMe ? 'unlikeOf' : 'likeOf', { name: p.name })}
          aria-pressed={p.likedByMe}
          variant="invisible"
          size="small"
          className={p.likedByMe ? styles.liked : undefined}
          onClick={() => void toggle(p)}
          data-testid="profile-like"
        />
        <span className={styles.counter} data-testid="profile-like-count">
          {p.likeCount}
        </span>
        <IconButton
          icon={CommentIcon}
          aria-label={tp('openComments', { name: p.name, count: p.commentCount })}
          variant="invisible"
          size="small"
          onClick={() => navigate(`${href}#comments`)}
          data-testid="profile-comments"
        />
        <span className={styles.counter}>{p.commentCount}</span>
      </div>
    </li>
  );
}

function Hidden({ text }: { text: string }) {
  return (
    <span className={styles.muted}>
      <LockIcon size={12} /> {text}
    </span>
  );
}
