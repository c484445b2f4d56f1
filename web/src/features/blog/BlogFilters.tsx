import { useEffect, useState, type FormEvent } from 'react';
import { Button, Select, TextInput } from '@primer/react';
import { SearchIcon, XIcon } from '@primer/octicons-react';
import { useQuery } from '@apollo/client/react';
import { useT } from '../../app/i18n';
import { SelectFilter } from '../../components/ListFrame';
import { BlogFilterOptionsQuery } from './operations';
import { TagFilter } from './TagFilter';
import styles from './blog.module.css';

export const FILTER_KEYS = ['title', 'tag', 'category', 'department'] as const;
export type FilterValues = Record<(typeof FILTER_KEYS)[number], string>;

/**
 * タイトル, タグ, カテゴリ, 部署: edited here, applied together by 検索 (or Enter), all cleared by クリア.
 */
export function BlogFilters({
  values,
  onSearch,
  onClear,
  active,
}: {
  values: FilterValues;
  onSearch(v: FilterValues): void;
  onClear(): void;
  active: number;
}) {
  const t = useT();
  const [draft, setDraft] = useState(values);
  const valuesKey = JSON.stringify(values);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the draft follows the applied filters, compared by value (a new object each render)
  useEffect(() => setDraft(values), [valuesKey]);
  const { data } = useQuery(BlogFilterOptionsQuery, { fetchPolicy: 'no-cache' });
  // Only categories whose posts the feed can show: an admin lists every category but, like anyone, reads only those they are in.
  const set = (k: keyof FilterValues) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch({ ...draft, title: draft.title.trim() });
  };
  return (
    <form className={styles.filters} role="search" onSubmit={submit}>
      <label className={styles.filterField}>
        <span className={styles.filterLabel}>{t('blog.filter.title')}</span>
        <TextInput
          leadingVisual={SearchIcon}
          value={draft.title}
          onChange={(e) => set('title')(e.target.value)}
          block
          aria-label={t('blog.filter.title')}
        />
      </label>
      <TagFilter value={draft.tag} onChange={set('tag')} />
      <SelectFilter
        label={t('blog.category')}
        allLabel={t('filter.all')}
        value={draft.category}
        onChange={set('category')}
        options={(data?.blogCategories ?? [])
          .filter((x) => x.isMember)
          .map((x) => ({ value: String(x.id), label: x.name }))}
      />
      <SelectFilter
        label={t('blog.filter.department')}
        allLabel={t('filter.all')}
        value={draft.department}
        onChange={set('department')}
        options={(data?.departmentNames ?? []).map((x) => ({ value: String(x.refId), label: x.name }))}
      />
      <div className={styles.filterButtons}>
        <Button type="submit" leadingVisual={SearchIcon}>
          {t('blog.search')}
        </Button>
        <Button type="button" variant="invisible" leadingVisual={XIcon} onClick={onClear} disabled={active === 0}>
          {t('grid.clear')}
        </Button>
      </div>
    </form>
  );
}

export function LayoutSelect({ value, onChange }: { value: number; onChange(n: 2 | 3 | 4): void }) {
  const t = useT();
  return (
    <label className={styles.layoutField}>
      <span className={styles.filterLabel}>{t('blog.layout')}</span>
      <Select
        value={String(value)}
        onChange={(e) => onChange(Number(e.target.value) as 2 | 3 | 4)}
        aria-label={t('blog.layout')}
      >
        {[2, 3, 4].map((n) => (
          <Select.Option key={n} value={String(n)}>
            {t('blog.layoutPerRow', { n })}
          </Select.Option>
        ))}
      </Select>
    </label>
  );
}
