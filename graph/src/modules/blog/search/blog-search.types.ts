import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BlogPostView } from '../blog-post.types.js';
import type { SearchSource } from './blog-search.queries.js';
import { MAX_QUERY_LENGTH, MAX_TERMS } from './blog-search.text.js';

export enum BlogSearchSource {
  TITLE = 'TITLE',
  CONTENT = 'CONTENT',
  COMMENT = 'COMMENT',
}
registerEnumType(BlogSearchSource, {
  name: 'BlogSearchSource',
  description: '検索語が見つかった場所',
  valuesConfig: {
    TITLE: { description: 'タイトル' },
    CONTENT: { description: '本文' },
    COMMENT: { description: 'コメント' },
  },
});

@ObjectType({
  simpleResolvers: true,
  description: '強調する範囲（text の中の位置。JavaScript の文字列と同じ UTF-16 単位）',
})
export class BlogSearchRange {
  @Field(() => Int) start!: number;
  @Field(() => Int) length!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: '検索語の前後の抜粋（HTML ではないテキスト。強調は highlights の範囲で表示側が付ける）',
})
export class BlogSearchSnippet {
  @Field(() => BlogSearchSource) source!: SearchSource;
  @Field({ description: 'タイトルは全体、本文とコメントは最初の一致の前後（切ったところに …）' }) text!: string;
  @Field(() => [BlogSearchRange]) highlights!: BlogSearchRange[];
}

@ObjectType({ simpleResolvers: true, description: '検索結果の 1 件' })
export class BlogSearchHit {
  @Field(() => BlogPostView) post!: BlogPostView;
  @Field(() => BlogSearchSource, {
    description: 'すべての言葉がそろった場所（タイトルだけで > 本文まで > コメントまで）。順位の第一キー',
  })
  matchedIn!: SearchSource;
  @Field(() => [BlogSearchSnippet], {
    description: '言葉が一致した場所ごとの抜粋（タイトル、本文、最新の一致したコメント）。どの言葉も強調',
  })
  snippets!: BlogSearchSnippet[];
}

@ObjectType({ simpleResolvers: true, description: '検索結果の 1 ページ' })
export class BlogSearchPage {
  @Field(() => [BlogSearchHit]) items!: BlogSearchHit[];
  @Field(() => String, {
    nullable: true,
    description:
      '次のページのカーソル（最後なら null）。blogSearch の after に渡す。1 回の検索の仕事量には上限があり、items が first より少なく（空でも）続きがあることがある。',
  })
  nextCursor!: string | null;
  @Field(() => Int, {
    nullable: true,
    description:
      '見つかった投稿の数（最初のページで、数えるのが軽いとき: 候補が少ないとき）。多くの投稿に出る言葉と、2ページ目以降は null',
  })
  totalCount!: number | null;
}

export enum BlogSearchOrder {
  RELEVANCE = 'RELEVANCE',
  NEWEST = 'NEWEST',
}
registerEnumType(BlogSearchOrder, {
  name: 'BlogSearchOrder',
  description: '検索結果の並び順',
  valuesConfig: {
    RELEVANCE: {
      description: '関連度: すべての言葉がタイトルにある投稿が先、次に本文まで、コメントまで。同じ順位の中は新しい順',
    },
    NEWEST: { description: '公開開始日の新しい順（見つかった場所によらない）' },
  },
});

@InputType({ description: '検索の絞り込み（指定したものすべて）' })
export class BlogSearchFilter {
  @Field(() => Int, { nullable: true, description: 'このカテゴリの投稿' }) categoryId?: number | null;
  @Field(() => Int, { nullable: true, description: 'この社員が書いた投稿' }) authorId?: number | null;
  @Field(() => String, { nullable: true, description: '公開開始日がこの日以降（YYYY-MM-DD）' }) from?: string | null;
  @Field(() => String, { nullable: true, description: '公開開始日がこの日以前（YYYY-MM-DD）' }) to?: string | null;
}

export const QUERY_DESCRIPTION = `検索する言葉（1〜${MAX_QUERY_LENGTH}文字。全角・半角、大文字・小文字は区別しない。ひらがなとカタカナは区別する）。スペース（半角・全角）で区切った言葉はすべてを含む投稿を探す（${MAX_TERMS}語まで、それぞれタイトル・本文・コメントのどこかに）。"…" で囲むとスペースも含めて一つの語句`;
