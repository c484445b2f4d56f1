import { useRef, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, FormControl, Select, Spinner, TextInput } from '@primer/react';
import { SearchIcon } from '@primer/octicons-react';
import type { PageDef } from '../../app/areas';
import { useCatalog, useDocumentTitle, useT } from '../../app/i18n';
import { useDebounced } from '../../app/use-debounced';
import { useNarrow } from '../../app/use-narrow';
import { useMasterOptions } from '../../components/master-options';
import { Page } from '../../components/Page';
import { PageHeading } from '../../components/PageHeading';
import { Pager, usePagerLabels } from '../../components/Pager';
import { ToastHost } from '../../components/Toast';
import { ProfileCard } from './ProfileCard';
import { ProfilesQuery } from './operations';
import { PROFILE } from './profiles.i18n';
import { useProfileLive } from './use-profile-live';
import styles from './profiles.module.css';

const PAGE_SIZE = 30;

/**
 * /profile_list and /profile_list/sp: every employee's profile as a card (3 per row; 1 under 440 px),
 * filtered by title, name and department, and found by what people know — the keyword looks in
 * skills, languages, experience, education, hobbies, talents and about me (the server's search: every
 * word, one character is enough). Likes and comments made anywhere update the cards live.
 */
export default function ProfileListPage({ def }: { def: PageDef }) {
  const t = useT();
  const tp = useCatalog(PROFILE);
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.profileList');
  useDocumentTitle(title);
  const { departments } = useMasterOptions();
  const [filter, setFilter] = useState({ title: '', name: '', departmentId: '', q: '' });
  const [offset, setOffset] = useState(0);
  const typed = useDebounced(filter, 300);
  const variables = {
    title: typed.title.trim() || undefined,
    name: typed.name.trim() || undefined,
    departmentId: typed.departmentId ? Number(typed.departmentId) : undefined,
    q: typed.q.trim() || undefined,
    offset,
    limit: PAGE_SIZE,
  };
  const { data, previousData, error, refetch } = useQuery(ProfilesQuery, {
    variables,
    fetchPolicy: 'cache-and-network',
  });
  const page = (data ?? previousData)?.profiles;
  // Only a change to a card on screen reads the page again (a like elsewhere in a company of
  // thousands must not make every open list ask the server).
  const shown = useRef(new Set<number>());
  shown.current = new Set(page?.items.map((p) => p.id));
  useProfileLive(null, (change) => {
    if (shown.current.has(change.profileId)) void refetch();
  });
  const pager = usePagerLabels();
  const set = (k: keyof typeof filter) => (value: string) => {
    setFilter((f) => ({ ...f, [k]: value }));
    setOffset(0);
  };
  const words = variables.q?.split(/[\s\u3000]+/).filter(Boolean) ?? [];
  const filtered = Boolean(variables.title || variables.name || variables.departmentId || variables.q);
  // Name, title and department: beside the keyword on a wide screen, folded under it on a phone.
  const secondary = (
    <>
      <FormControl>
        <FormControl.Label>{tp('filterName')}</FormControl.Label>
        <TextInput
          block
          value={filter.name}
          onChange={(e) => set('name')(e.target.value)}
          data-testid="profile-filter-name"
        />
      </FormControl>
      <FormControl>
        <FormControl.Label>{tp('filterTitle')}</FormControl.Label>
        <TextInput
          block
          value={filter.title}
          onChange={(e) => set('title')(e.target.value)}
          data-testid="profile-filter-title"
        />
      </FormControl>
      <FormControl>
        <FormControl.Label>{tp('filterDepartment')}</FormControl.Label>
        <Select
          block
          value={filter.departmentId}
          onChange={(e) => set('departmentId')(e.target.value)}
          data-testid="profile-filter-department"
        >
          <Select.Option value="">{tp('allDepartments')}</Select.Option>
          {departments.map((d) => (
            <Select.Option key={d.value} value={d.value}>
              {d.label}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
    </>
  );

  return (
    <Page testId="profile-list-page">
      <PageHeading title={title} description={t('desc.profileList')} />
      <div className={styles.filters} role="search">
        <FormControl className={styles.keyword}>
          <FormControl.Label>{tp('keyword')}</FormControl.Label>
          <TextInput
            block
            leadingVisual={SearchIcon}
            value={filter.q}
            onChange={(e) => set('q')(e.target.value)}
            data-testid="profile-filter-q"
          />
          <FormControl.Caption>{tp('keywordHint')}</FormControl.Caption>
        </FormControl>
        {narrow ? (
          <details className={styles.moreFilters}>
            <summary>{tp('moreFilters')}</summary>
            <div className={styles.filtersInner}>{secondary}</div>
          </details>
        ) : (
          secondary
        )}
      </div>
      {error && !page && (
        <div className={styles.failed} role="alert">
          <span>{tp('loadFailed')}</span>
          <Button size="small" onClick={() => void refetch()}>
            {tp('retry')}
          </Button>
        </div>
      )}
      {!page && !error && <Spinner size="medium" srText={tp('loading')} />}
      {page && (
        <>
          {page.items.length === 0 ? (
            <p className={styles.empty} data-testid="profile-empty">
              {filtered ? tp('none') : tp('noneYet')}
            </p>
          ) : (
            <ul className={narrow ? styles.cardsNarrow : styles.cards} data-testid="profile-cards">
              {page.items.map((p) => (
                <ProfileCard key={p.id} profile={p} words={words} narrow={narrow} />
              ))}
            </ul>
          )}
          <Pager
            offset={page.offset}
            limit={page.limit}
            total={page.total}
            onOffset={setOffset}
            labels={pager}
            compact={narrow}
          />
        </>
      )}
      <ToastHost closeLabel={t('rec.close')} />
    </Page>
  );
}
