import { useMemo } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { PersonIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
import { SuggestField } from '../../../components/suggestions/SuggestField';
import { graphql } from '../../../gql';
import { useSearchText } from './search.i18n';
import styles from './search.module.css';

const AuthorSuggestionsQuery = graphql(`
  query BlogSearchAuthors($name: String) {
    employees(filter: { name: $name, includeRetired: true }, limit: 10) {
      items {
        id
        name
        department {
          name
        }
      }
    }
  }
`);

const AuthorNameQuery = graphql(`
  query BlogSearchAuthor($id: Int!) {
    employee(id: $id) {
      id
      name
    }
  }
`);

/** 作成者: the hits of one person's posts, found by typing part of their name (retired people too: their posts stay). */
export function AuthorFilter({ value, onChange }: { value: string; onChange(id: string): void }) {
  const t = useT();
  const text = useSearchText();
  const client = useApolloClient();
  const { search, nameOf } = useMemo(
    () => ({
      search: async (name: string) =>
        (await client.query({ query: AuthorSuggestionsQuery, variables: { name: name || null } })).data?.employees
          .items ?? [],
      nameOf: async (id: number) =>
        (await client.query({ query: AuthorNameQuery, variables: { id } })).data?.employee.name ?? null,
    }),
    [client],
  );
  return (
    <SuggestField
      value={value}
      onChange={onChange}
      search={search}
      toItem={(e) => ({ id: e.id, label: e.name, detail: e.department?.name })}
      nameOf={nameOf}
      label={<span>{text('author')}</span>}
      name={text('author')}
      placeholder={text('allAuthors')}
      icon={PersonIcon}
      className={styles.tool}
      testId="blog-search-author"
      words={{
        label: text('authorChoices'),
        emptyText: text('authorNone'),
        loadingText: t('common.loading'),
        testId: 'blog-search-author-choices',
      }}
    />
  );
}
