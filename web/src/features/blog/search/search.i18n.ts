import { defineCatalog, useCatalog } from '../../../app/i18n';

/** The search's words, in the blog chunk (not the first chunk's catalogs: the initial JS budget). */
export const MAX_QUERY = 50;
export const MAX_TERMS = 5;

const SEARCH = defineCatalog({
  ja: {
    label: 'ブログを検索',
    placeholder: 'タイトル・本文・コメントを検索',
    submit: '全文検索',
    clear: '検索をやめる',
    hint: `1〜${MAX_QUERY}文字。スペース区切りはすべての言葉を含む投稿、"…" は語句のまま探します。`,
    empty: '検索する言葉を入力してください。',
    tooLong: `検索する言葉は${MAX_QUERY}文字以内にしてください。`,
    tooMany: `検索する言葉は${MAX_TERMS}つまでにしてください（スペースで区切った言葉の数）。`,
    results: '「{q}」の検索結果',
    none: '「{q}」に一致する投稿はありません（見られる投稿だけを探します）。',
    failed: '検索できませんでした。時間をおいて再度お試しください。',
    openFailed: '投稿を開けませんでした。削除されたか、見られなくなった可能性があります。',
    more: 'もっと見る',
    count: '{n}件',
    countMany: '多くの投稿に含まれる言葉です（絞り込むと件数が出ます）',
    order: '並び順',
    orderRelevance: '関連度順',
    orderNewest: '新しい順',
    category: 'カテゴリ',
    allCategories: 'すべて',
    author: '作成者',
    allAuthors: 'すべて',
    authorChoices: '作成者の候補',
    authorNone: '該当する社員がいません',
    from: '公開日（から）',
    to: '公開日（まで）',
    narrow: '絞り込み',
    resetNarrow: '絞り込みを解除',
    TITLE: 'タイトル',
    CONTENT: '本文',
    COMMENT: 'コメント',
  },
  en: {
    label: 'Search the blog',
    placeholder: 'Search titles, bodies and comments',
    submit: 'Full-text search',
    clear: 'Stop searching',
    hint: `1–${MAX_QUERY} characters. Posts with every space-separated word are found; "…" keeps a phrase.`,
    empty: 'Enter words to search for.',
    tooLong: `Use at most ${MAX_QUERY} characters.`,
    tooMany: `Use at most ${MAX_TERMS} words (separated by spaces).`,
    results: 'Results for “{q}”',
    none: 'No post matches “{q}” (only posts you may see are searched).',
    failed: 'The search failed. Please try again later.',
    openFailed: 'The post could not be opened. It may have been deleted or hidden from you.',
    more: 'More',
    count: '{n} found',
    countMany: 'These words are in many posts (narrow the search to see how many)',
    order: 'Order',
    orderRelevance: 'Relevance',
    orderNewest: 'Newest first',
    category: 'Category',
    allCategories: 'All',
    author: 'Author',
    allAuthors: 'Anyone',
    authorChoices: 'Matching people',
    authorNone: 'No one found',
    from: 'Published from',
    to: 'Published until',
    narrow: 'Narrow the search',
    resetNarrow: 'Clear',
    TITLE: 'Title',
    CONTENT: 'Body',
    COMMENT: 'Comment',
  },
});

/** The search's words in the current language, through format(). */
export function useSearchText() {
  return useCatalog(SEARCH);
}

export type QueryProblem = 'empty' | 'tooLong' | 'tooMany';

/**
 * The query as the server counts it, for the box's own checks: characters after normalization, and
 * terms (words between spaces; "..." one term, spaces included).
 */
export function queryProblem(q: string): QueryProblem | null {
  const norm = q.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const terms = (norm.match(/["“”][^"“”]*["“”]?|[^ "“”]+/g) ?? []).filter((t) => t.replace(/["“”]/g, '').trim());
  if (!terms.length) return 'empty';
  return [...norm].length > MAX_QUERY ? 'tooLong' : new Set(terms).size > MAX_TERMS ? 'tooMany' : null;
}
