import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Dialog, Flash, Label, Spinner } from '@primer/react';
import { ArrowLeftIcon, CommentIcon, HeartFillIcon, HeartIcon, PencilIcon } from '@primer/octicons-react';
import type { PageDef } from '../../app/areas';
import { useCatalog, useDocumentTitle, useT } from '../../app/i18n';
import { leaveOnPurpose } from '../../app/leave-guard';
import { useNarrow } from '../../app/use-narrow';
import { useSession } from '../../app/auth/session';
import { Avatar } from '../../components/Avatar';
import { UnavailablePanel } from '../../components/DetailFrame';
import { readError } from '../../components/gql-errors';
import { Page } from '../../components/Page';
import { toast, ToastHost } from '../../components/Toast';
import type { ProfileFieldsFragment, ProfileInput } from '../../gql/graphql';
import { completeness } from './completeness';
import { profileListPath } from './links';
import { LikersTable } from './LikersPanel';
import { CreateProfileMutation, MyProfileQuery, ProfileQuery, UpdateProfileMutation } from './operations';
import { Carousel } from './Carousel';
import { ProfileComments } from './ProfileComments';
import { EMPTY_FORM, ProfileForm, type ProfileFormValues } from './ProfileForm';
import { ProfileView } from './ProfileView';
import { PROFILE } from './profiles.i18n';
import { useLikeProfile } from './use-like';
import { useProfileLive } from './use-profile-live';
import styles from './profiles.module.css';

const formOf = (p: ProfileFieldsFragment): ProfileFormValues => ({
  title: p.title,
  address: p.address ?? '',
  addressVisibility: p.addressVisibility,
  phone: p.phone ?? '',
  phoneVisibility: p.phoneVisibility,
  skills: [...p.skills],
  languages: [...p.languages],
  workExperience: [...p.workExperience],
  education: [...p.education],
  aboutMe: p.aboutMe as unknown as ProfileFormValues['aboutMe'],
  hobbies: p.hobbies,
  talents: p.talents,
  avatar: p.avatar ? { url: p.avatar.url, thumbnailUrl: p.avatar.thumbnailUrl } : null,
  hobbyImages: p.hobbyImages.map(picture),
  talentImages: p.talentImages.map(picture),
  headerImages: p.headerImages.map(picture),
});
const picture = (i: { url: string; thumbnailUrl: string }) => ({ url: i.url, thumbnailUrl: i.thumbnailUrl });

/**
 * /profile/{id} (and /profile/sp/{id}): one employee's profile — the left column what they wrote, the
 * right column who liked it and the comments; on a phone those two open from floating buttons.
 * /profile (the menu's 自分のプロフィール) is one's own, or an empty one to create. The Edit button is
 * there only for the owner; Cancel reads the profile again; a save that crossed another one says so
 * and keeps what was typed. Likes and comments made anywhere appear within a second.
 */
export default function ProfilePage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const tp = useCatalog(PROFILE);
  const narrow = useNarrow() || !!def.mobile;
  const navigate = useNavigate();
  const location = useLocation();
  const profileId = id ? Number(id) : null;
  const own = profileId === null;
  const byId = useQuery(ProfileQuery, {
    variables: { id: profileId ?? 0 },
    skip: own || !Number.isInteger(profileId),
    fetchPolicy: 'cache-and-network',
  });
  const mine = useQuery(MyProfileQuery, { skip: !own, fetchPolicy: 'cache-and-network' });
  const q = own ? mine : byId;
  const profile = own ? mine.data?.employeeProfile : byId.data?.profile;
  const title = profile ? profile.name : t(own ? 'page.myProfile' : 'page.profile');
  useDocumentTitle(title);

  const [editing, setEditing] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const [revision, setRevision] = useState(0);
  const [sheet, setSheet] = useState<'likers' | 'comments' | null>(null);
  // The thread's own total (it is read again after every comment, here or live).
  const [commentTotal, setCommentTotal] = useState<number | null>(null);
  const [create, creating] = useMutation(CreateProfileMutation);
  const [update, updating] = useMutation(UpdateProfileMutation);
  const { toggle, busy } = useLikeProfile(tp('likeFailed'));
  const { user } = useSession();

  useProfileLive(
    profile?.id ?? null,
    (change) => {
      setRevision((r) => r + 1);
      // A comment's change concerns the thread only (revision reads it again); anything else, the profile.
      if (!change.type.startsWith('profile.comment.')) void q.refetch();
    },
    !profile,
  );
  // The list's comment icon opens the profile at its comments.
  const loadedId = profile?.id;
  useEffect(() => {
    if (location.hash !== '#comments' || !loadedId) return;
    if (narrow) setSheet('comments');
    else document.getElementById('profile-comments')?.scrollIntoView();
  }, [location.hash, loadedId, narrow]);

  const save = async (input: Omit<ProfileInput, 'version'>) => {
    setFieldErrors({});
    setConflict(false);
    try {
      if (profile) await update({ variables: { id: profile.id, input: { ...input, version: profile.version } } });
      else await create({ variables: { input } });
      toast.success(profile ? tp('updated') : tp('created'));
      setEditing(false);
      await q.refetch();
    } catch (e) {
      const err = readError(e);
      if (err.code === 'CONFLICT') setConflict(true);
      else if (err.code === 'BAD_USER_INPUT') setFieldErrors(err.fieldErrors);
      toast.error(
        err.code === 'CONFLICT'
          ? tp('conflict')
          : err.code === 'BAD_USER_INPUT' || err.code === 'FORBIDDEN'
            ? err.message
            : profile
              ? tp('updateFailed')
              : tp('createFailed'),
      );
    }
  };

  const back = (
    <Button
      variant="invisible"
      leadingVisual={ArrowLeftIcon}
      onClick={() => navigate(profileListPath(narrow))}
      className={styles.back}
    >
      {tp('back')}
    </Button>
  );

  if (!profile && (q.loading || (!q.data && !q.error)))
    return (
      <Page testId="profile-page">
        <Spinner size="medium" srText={tp('loading')} />
      </Page>
    );
  if (!profile && !own) {
    const err = q.error ? readError(q.error) : null;
    return (
      <Page testId="profile-page">
        {back}
        <UnavailablePanel
          title={err?.code === 'NOT_FOUND' || !q.error ? tp('notFound') : tp('loadFailed')}
          body={err?.message ?? tp('notFound')}
          back={{ href: profileListPath(narrow), label: tp('back') }}
        />
      </Page>
    );
  }

  const fill = profile && profile.canEdit ? completeness(profile) : null;
  const formInitial = profile ? formOf(profile) : EMPTY_FORM;
  const form = (
    <ProfileForm
      name={profile?.name ?? user.name}
      initial={formInitial}
      saving={creating.loading || updating.loading}
      fieldErrors={fieldErrors}
      onSave={(input) => void save(input)}
      onCancel={() => {
        setEditing(false);
        setFieldErrors({});
        setConflict(false);
        void q.refetch();
      }}
    />
  );

  return (
    <Page testId="profile-page">
      {back}
      {!profile ? (
        <div className={styles.createLead} data-testid="profile-create">
          <h1 className={styles.name}>{t('page.myProfile')}</h1>
          {!editing ? (
            <>
              <p>{tp('createLead')}</p>
              <Button
                variant="primary"
                leadingVisual={PencilIcon}
                onClick={() => setEditing(true)}
                data-testid="profile-create-start"
              >
                {tp('create')}
              </Button>
            </>
          ) : (
            form
          )}
        </div>
      ) : (
        <div className={narrow ? styles.columnsNarrow : styles.columns}>
          <div className={styles.main}>
            {profile.headerImages.length > 0 && !editing && (
              <div className={styles.headerBand}>
                <Carousel
                  label={tp('headerImages')}
                  pictures={profile.headerImages}
                  intervalMs={5000}
                  testId="profile-header-carousel"
                />
              </div>
            )}
            <header className={styles.header}>
              <span
                className={styles.ring}
                style={fill ? { ['--fill' as string]: `${fill.percent}%` } : undefined}
                data-complete={fill?.percent}
              >
                <Avatar name={profile.name} size={narrow ? 64 : 88} src={profile.avatar?.url} />
              </span>
              <div className={styles.headerText}>
                <h1 className={styles.name}>
                  {profile.name}
                  {profile.status === 'RETIRED' && (
                    <Label variant="secondary" className={styles.retired}>
                      {tp('retired')}
                    </Label>
                  )}
                </h1>
                <p className={styles.muted}>
                  {[profile.title, profile.departmentName, profile.locationName].filter(Boolean).join('・')}
                </p>
                {fill && fill.percent < 100 && (
                  <p className={styles.nudge} data-testid="profile-completeness">
                    {tp('completeness', { percent: fill.percent })} —{' '}
                    {tp('missing', { fields: fill.missing.map((f) => tp(f)).join('、') })}
                  </p>
                )}
              </div>
              {profile.canEdit && !editing && (
                <Button leadingVisual={PencilIcon} onClick={() => setEditing(true)} data-testid="profile-edit">
                  {tp('edit')}
                </Button>
              )}
            </header>
            {conflict && (
              <Flash variant="warning" className={styles.conflict}>
                {tp('conflict')}{' '}
                <Button size="small" onClick={() => leaveOnPurpose(() => window.location.reload())}>
                  {tp('reload')}
                </Button>
              </Flash>
            )}
            {editing ? form : <ProfileView profile={profile} />}
          </div>
          {!narrow && (
            <aside className={styles.side}>
              <div className={styles.likeBar}>
                <Button
                  leadingVisual={profile.likedByMe ? HeartFillIcon : HeartIcon}
                  aria-pressed={profile.likedByMe}
                  onClick={() => void toggle(profile)}
                  disabled={busy}
                  className={profile.likedByMe ? styles.liked : undefined}
                  data-testid="profile-like"
                >
                  {tp('like')} <span data-testid="profile-like-count">{profile.likeCount}</span>
                </Button>
              </div>
              <details className={styles.panel} open data-testid="profile-likers-panel">
                <summary>{tp('likersCount', { count: profile.likeCount })}</summary>
                <LikersTable profileId={profile.id} revision={revision} total={profile.likeCount} />
              </details>
              <h2 id="profile-comments" className={styles.sectionTitle}>
                {tp('comments')}（{commentTotal ?? profile.commentCount}）
              </h2>
              <ProfileComments profileId={profile.id} revision={revision} onCount={setCommentTotal} />
            </aside>
          )}
          {narrow && (
            <div className={styles.floating}>
              {/* The accessible name holds the visible count (what is said is what is seen). */}
              <button
                type="button"
                className={profile.likedByMe ? styles.fabLiked : styles.fab}
                onClick={() => setSheet('likers')}
                data-testid="profile-fab-likes"
              >
                {profile.likedByMe ? <HeartFillIcon aria-hidden /> : <HeartIcon aria-hidden />}
                <span className={styles.visuallyHidden}>{tp('likers')}</span>
                <span>{profile.likeCount}</span>
              </button>
              <button
                type="button"
                className={styles.fab}
                onClick={() => setSheet('comments')}
                data-testid="profile-fab-comments"
              >
                <CommentIcon aria-hidden />
                <span className={styles.visuallyHidden}>{tp('comments')}</span>
                <span>{commentTotal ?? profile.commentCount}</span>
              </button>
            </div>
          )}
          {sheet && (
            <Dialog
              title={sheet === 'likers' ? tp('likersCount', { count: profile.likeCount }) : tp('comments')}
              onClose={() => setSheet(null)}
              position={{ narrow: 'fullscreen', regular: 'center' }}
              footerButtons={[{ content: tp('close'), onClick: () => setSheet(null) }]}
            >
              {sheet === 'likers' ? (
                <>
                  <Button
                    block
                    leadingVisual={profile.likedByMe ? HeartFillIcon : HeartIcon}
                    aria-pressed={profile.likedByMe}
                    onClick={() => void toggle(profile)}
                    disabled={busy}
                    className={profile.likedByMe ? styles.liked : undefined}
                    data-testid="profile-like"
                  >
                    {tp('like')} {profile.likeCount}
                  </Button>
                  <LikersTable profileId={profile.id} revision={revision} total={profile.likeCount} />
                </>
              ) : (
                <ProfileComments profileId={profile.id} revision={revision} onCount={setCommentTotal} />
              )}
            </Dialog>
          )}
        </div>
      )}
      <ToastHost closeLabel={t('rec.close')} />
    </Page>
  );
}
