import { useEffect, useState } from 'react';
import { Button, FormControl, TextInput } from '@primer/react';
import { SearchIcon, XIcon } from '@primer/octicons-react';
import { queryProblem, useSearchText, type QueryProblem } from './search.i18n';
import styles from './search.module.css';

/**
 * The search box of /blog and /blog/sp: submits the words (Enter or 検索), refusing an empty or too
 * long query, or one of too many words, with its message before asking the server (`onRefused`:
 * the results of the previous words are no answer to these); × ends the search (the feed comes back).
 */
export function BlogSearchBox({
  value,
  onSearch,
  onRefused,
}: {
  value: string;
  onSearch(q: string): void;
  onRefused(): void;
}) {
  const text = useSearchText();
  const [draft, setDraft] = useState(value);
  const [problem, setProblem] = useState<QueryProblem | null>(null);
  useEffect(() => setDraft(value), [value]);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const p = queryProblem(draft);
    setProblem(p);
    if (p) onRefused();
    else onSearch(draft.trim());
  };
  return (
    <form role="search" className={styles.box} onSubmit={submit} data-testid="blog-search">
      <FormControl>
        <FormControl.Label visuallyHidden>{text('label')}</FormControl.Label>
        <TextInput
          leadingVisual={SearchIcon}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            if (problem) setProblem(null);
          }}
          placeholder={text('placeholder')}
          validationStatus={problem ? 'error' : undefined}
          trailingAction={
            value || draft ? (
              <TextInput.Action
                onClick={() => {
                  setDraft('');
                  setProblem(null);
                  onSearch('');
                }}
                icon={XIcon}
                aria-label={text('clear')}
              />
            ) : undefined
          }
          block
        />
        {problem ? (
          <FormControl.Validation variant="error">{text(problem)}</FormControl.Validation>
        ) : (
          <FormControl.Caption>{text('hint')}</FormControl.Caption>
        )}
      </FormControl>
      <Button type="submit">{text('submit')}</Button>
    </form>
  );
}
