import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Spinner } from '@primer/react';
import { useT } from '../../../app/i18n';
import { CategoryLabel } from '../BlogCard';
import { ChoiceDialog } from './ChoiceDialog';
import { BlogEditorCategoriesQuery } from './operations';
import type { PostForm } from './post-form';
import styles from './editor.module.css';

type Category = NonNullable<PostForm['category']>;

/**
 * カテゴリの選択 (spec §2): a table of id and name of the categories the author may post in; a click
 * chooses a row, 決定 takes it (a double click does both).
 */
export function CategoryDialog({
  current,
  onClose,
  onPick,
}: {
  current: Category | null;
  onClose(): void;
  onPick(c: Category): void;
}) {
  const t = useT();
  const { data, loading, error } = useQuery(BlogEditorCategoriesQuery, { fetchPolicy: 'no-cache' });
  const [chosen, setChosen] = useState<Category | null>(current);
  const [missing, setMissing] = useState(false);
  const rows = (data?.blogCategories ?? []).filter((c) => c.canPost);
  const choose = (c: Category) => {
    setChosen({ id: c.id, name: c.name, color: c.color });
    setMissing(false);
  };
  const confirm = () => (chosen ? onPick(chosen) : setMissing(true));
  return (
    <ChoiceDialog
      title={t('blogEdit.categoryDialog')}
      width="medium"
      testId="blog-category-dialog"
      onClose={onClose}
      onDecide={confirm}
    >
      <p className={styles.hint}>{t('blogEdit.categoryHint')}</p>
      {missing && (
        <p className={styles.dialogError} role="alert">
          {t('blogEdit.categoryNone')}
        </p>
      )}
      <div className={styles.tableWrap}>
        <table className={styles.choiceTable} aria-label={t('blogEdit.categoryDialog')}>
          <thead>
            <tr>
              <th scope="col" className={styles.idCol}>
                {t('col.id')}
              </th>
              <th scope="col">{t('blogEdit.categoryName')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr
                key={c.id}
                tabIndex={0}
                aria-selected={chosen?.id === c.id}
                data-row-id={c.id}
                onClick={() => choose(c)}
                onDoubleClick={() => onPick({ id: c.id, name: c.name, color: c.color })}
                onKeyDown={(e) => e.key === 'Enter' && e.target === e.currentTarget && choose(c)}
              >
                <td className={styles.idCol}>{c.id}</td>
                <td>
                  <CategoryLabel category={c} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {loading && (
          <div className={styles.tableStatus}>
            <Spinner size="small" srText={t('common.loading')} />
          </div>
        )}
        {!loading &&
          (error ? (
            <p className={styles.tableStatus}>{t('blog.fetchFailed')}</p>
          ) : (
            rows.length === 0 && <p className={styles.tableStatus}>{t('blogEdit.categoryEmpty')}</p>
          ))}
      </div>
    </ChoiceDialog>
  );
}
