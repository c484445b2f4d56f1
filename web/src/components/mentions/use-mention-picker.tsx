import { useT } from '../../app/i18n';
import { useSuggestions } from '../suggestions/use-suggestions';

export interface MentionCandidate {
  id: number;
  name: string;
  departmentName: string | null;
}

/** Who may be mentioned here, for what was typed after @ (the server decides: only the post's readers). */
export type MentionSearch = (query: string) => Promise<MentionCandidate[]>;

/** The list of people for an @ being typed: name, and department under it. */
export function useMentionPicker(search: MentionSearch | undefined, onPick: (c: MentionCandidate) => void) {
  const t = useT();
  return useSuggestions(search, (c) => ({ id: c.id, label: c.name, detail: c.departmentName }), onPick, {
    label: t('mention.list'),
    emptyText: t('mention.none'),
    loadingText: t('mention.loading'),
    testId: 'mention-menu',
  });
}
