import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../../app/areas';
import { useDocumentTitle, useT } from '../../../app/i18n';
import { useNarrow } from '../../../app/use-narrow';
import { ListFrame, TextFilter, useUrlFilters } from '../../../components/ListFrame';
import { ListTable, type ListColumn } from '../../../components/ListTable';
import { Pager, usePagerLabels } from '../../../components/Pager';
import { Phrases } from '../../../components/Phrases';
import { useListLabels } from '../../../components/labels';
import { displayDate } from '../../../components/master-options';
import { toast } from '../../../components/Toast';
import type { BlogCategoriesListQuery as BlogCategoriesListData } from '../../../gql/graphql';
import { CategoryLabel } from '../BlogCard';
import { BlogCategoriesListQuery } from './operations';

type Row = BlogCategoriesListData['blogCategories'][number];

const PAGE = 50;
const KEYS = ['name'] as const;

/**
 * /blog_category: every category (管理者/システム管理者 see all of them here, members or not), with
 * its label, permissions and how many departments and people it names. The server answers the whole
 * list (a company has tens of categories); the name filter and the pages apply here.
 */
export default function BlogCategoriesPage({ def }: { def: PageDef }) {
  const t = useT();
  const navigate = useNavigate();
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.blogCategories');
  useDocumentTitle(title);
  const f = useUrlFilters(KEYS);
  const { data, loading, error } = useQuery(BlogCategoriesListQuery, { fetchPolicy: 'no-cache' });
  useEffect(() => {
    if (error) toast.error(t('toast.fetchFailed.blogCategories'));
  }, [error, t]);
  const pagerLabels = usePagerLabels();
  const needle = f.values.name.toLowerCase();
  const matching = (data?.blogCategories ?? []).filter((c) => c.name.toLowerCase().includes(needle));
  const rows = matching.slice(f.offset, f.offset + PAGE);
  const columns: ListColumn<Row>[] = [
    // Narrow: no ID or date, and the member counts wrap between their two phrases, so the three columns that matter fit 390 px.
    ...(narrow ? [] : [{ key: 'id', header: t('col.id'), render: (c: Row) => c.id, width: '4rem', nowrap: true }]),
    { key: 'name', header: t('blogCat.name'), render: (c) => <CategoryLabel category={c} /> },
    {
      key: 'permissions',
      header: t('blogCat.permissions'),
      render: (c) => c.permissions.map((p) => t(`blogCat.perm.${p}`)).join('・'),
      nowrap: true,
    },
    {
      key: 'members',
      header: t('blogCat.col.members'),
      render: (c) => (
        <Phrases
          items={[
            t('blogCat.memberDepartments', { n: c.departments.length }),
            t('blogCat.memberPeople', { n: c.employees.length }),
          ]}
        />
      ),
    },
    ...(narrow
      ? []
      : [
          {
            key: 'upd',
            header: t('col.updatedAt'),
            render: (c: Row) => displayDate(c.updatedAt),
            width: '8rem',
            nowrap: true,
          },
        ]),
  ];
  return (
    <ListFrame
      testId="blog-categories-page"
      section={t(AREAS.blogCategories.section)}
      title={title}
      description={t(AREAS.blogCategories.description)}
      narrow={narrow}
      labels={useListLabels()}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => navigate('/blog_category/new')}
      filters={<TextFilter label={t('blogCat.name')} value={f.values.name} onChange={(v) => f.set('name', v)} />}
    >
      <ListTable
        label={title}
        testId="blog-categories-table"
        rows={rows}
        rowKey={(c) => c.id}
        loading={loading}
        emptyText={f.active ? t('grid.empty') : t('blogCat.empty')}
        openOnClick={narrow}
        onOpen={(c) => navigate(`/blog_category/${c.id}`)}
        columns={columns}
      />
      {data && (
        <Pager
          offset={f.offset}
          limit={PAGE}
          total={matching.length}
          onOffset={f.setOffset}
          labels={pagerLabels}
          compact={narrow}
        />
      )}
    </ListFrame>
  );
}
