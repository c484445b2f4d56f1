import { useMutation, useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../../app/areas';
import { useDocumentTitle, useT } from '../../../app/i18n';
import { useConfirm } from '../../../components/ConfirmDialog';
import { DetailFrame, useRecordEditor } from '../../../components/DetailFrame';
import { FormGrid, ReadonlyField, TextField } from '../../../components/FormFields';
import { displayDateTime } from '../../../components/master-options';
import { recordIdOf, useDetailExit, useRecordDetail } from '../../../components/save-flow';
import type { BlogCategoryDetailFieldsFragment, BlogCategoryPermission } from '../../../gql/graphql';
import { ColorField } from './ColorField';
import { MembersSection, type Member } from './MembersSection';
import { PermissionsField, type Permissions } from './PermissionsField';
import { BlogCategoryDetailQuery, CreateBlogCategoryMutation, UpdateBlogCategoryMutation } from './operations';

interface Form {
  name: string;
  color: string;
  /** 書き込み and 閲覧 as two fields, so a conflict names the one that differs. */
  write: boolean;
  read: boolean;
  departments: Member[];
  employees: Member[];
  version: number | null;
  createdAt: string;
  updatedAt: string;
}

// A new category: members read, only 管理者/システム管理者 post (the narrower choice until widened).
const EMPTY: Form = {
  name: '',
  color: '#000000',
  write: false,
  read: true,
  departments: [],
  employees: [],
  version: null,
  createdAt: '',
  updatedAt: '',
};

const fromView = (c: BlogCategoryDetailFieldsFragment): Form => ({
  name: c.name,
  color: c.color,
  write: c.permissions.includes('WRITE'),
  read: c.permissions.includes('READ'),
  departments: c.departments.map(({ id, name }) => ({ id, name })),
  employees: c.employees.map(({ id, name }) => ({ id, name })),
  version: c.version,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const toPermissions = (p: Permissions): BlogCategoryPermission[] => [
  ...(p.write ? (['WRITE'] as const) : []),
  ...(p.read ? (['READ'] as const) : []),
];

/** /blog_category/new and /blog_category/:id: view mode, 編集, then 保存 or キャンセル, as the other master data. */
export default function BlogCategoryDetailPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const title = t(isNew ? 'page.blogCategoryNew' : 'page.blogCategoryDetail');
  useDocumentTitle(title);
  const ed = useRecordEditor<Form>(EMPTY, isNew);
  const { confirm, dialog } = useConfirm();
  const { data, loading, error, refetch } = useQuery(BlogCategoryDetailQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const flow = useRecordDetail(ed, {
    record: data?.blogCategory,
    error,
    toForm: fromView,
    fetchFailed: t('toast.fetchFailed.blogCategory'),
    refetch: () => void refetch(),
    fields: {
      name: t('blogCat.name'),
      color: t('blogCat.color'),
      write: `${t('blogCat.permissions')}: ${t('blogCat.perm.WRITE')}`,
      read: `${t('blogCat.permissions')}: ${t('blogCat.perm.READ')}`,
      departments: t('blogCat.departments'),
      employees: t('blogCat.employees'),
    },
  });
  const exit = useDetailExit({ editor: ed, flow, isNew, list: '/blog_category', confirm });
  const [create] = useMutation(CreateBlogCategoryMutation, { fetchPolicy: 'no-cache' });
  const [update] = useMutation(UpdateBlogCategoryMutation, { fetchPolicy: 'no-cache' });
  const v = ed.values;
  const ro = !ed.editing;

  const save = async () => {
    const input = {
      name: v.name.trim(),
      color: v.color,
      permissions: toPermissions(v),
      departmentIds: v.departments.map((d) => d.id),
      employeeIds: v.employees.map((e) => e.id),
      version: isNew ? undefined : (v.version ?? undefined),
    };
    await exit.submit('blogCategory', () =>
      isNew ? create({ variables: { input } }) : update({ variables: { id: numericId, input } }),
    );
  };

  return (
    <DetailFrame
      testId="blog-category-detail-page"
      section={t(AREAS.blogCategories.section)}
      title={title}
      {...exit.frame({
        id: numericId,
        loading: loading && !data,
        found: !!data?.blogCategory,
        error,
        onCancel: () => void exit.cancel(),
        onSubmit: () => void save(),
      })}
      after={dialog}
    >
      <FormGrid>
        <TextField
          label={t('blogCat.name')}
          value={v.name}
          onChange={(x) => ed.set('name', x)}
          readOnly={ro}
          required
          error={flow.fieldErrors.name}
          autoComplete="off"
        />
        <ColorField
          value={v.color}
          name={v.name}
          onChange={(x) => ed.set('color', x)}
          readOnly={ro}
          error={flow.fieldErrors.color}
        />
        <PermissionsField
          value={v}
          onChange={(x) => ed.setValues((f) => ({ ...f, ...x }))}
          readOnly={ro}
          error={flow.fieldErrors.permissions}
        />
        {!isNew && (
          <>
            <ReadonlyField label={t('rec.createdAt')} value={displayDateTime(v.createdAt)} />
            <ReadonlyField label={t('rec.updatedAt')} value={displayDateTime(v.updatedAt)} />
          </>
        )}
      </FormGrid>
      <MembersSection
        departments={v.departments}
        employees={v.employees}
        onDepartments={(x) => ed.set('departments', x)}
        onEmployees={(x) => ed.set('employees', x)}
        readOnly={ro}
        errors={{ departmentIds: flow.fieldErrors.departmentIds, employeeIds: flow.fieldErrors.employeeIds }}
      />
    </DetailFrame>
  );
}
