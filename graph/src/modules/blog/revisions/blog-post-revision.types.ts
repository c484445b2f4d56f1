import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BlogAuthor } from '../blog-post.types.js';
import { REVISION_CHANGES, type RevisionChange } from './blog-post-revision.service.js';

export const BlogRevisionChange = Object.fromEntries(REVISION_CHANGES.map((c) => [c, c])) as {
  [K in RevisionChange]: K;
};
registerEnumType(BlogRevisionChange, {
  name: 'BlogRevisionChange',
  description:
    '一つ前の版から変わったもの（TITLE タイトル、CONTENT 本文、CATEGORY カテゴリ、TAGS タグ、PUBLISH 公開期間、PIN ピン留め・必読、OPTIONS コメント・いいねの許可、STATE 下書き・公開、ATTACHMENT 添付ファイル）',
});

@ObjectType({
  simpleResolvers: true,
  description:
    '投稿の版（保存ごとに1つ。作成者と管理者・システム管理者だけが読める）。カテゴリとタグは保存したときの名前、添付ファイルは名前だけ',
})
export class BlogPostRevision {
  @Field(() => Int, { description: 'この版の version（投稿の version と同じ数）' }) version!: number;
  @Field({ description: '保存した日時' }) savedAt!: Date;
  @Field(() => BlogAuthor, { nullable: true, description: '保存した社員（削除された社員は null）' })
  savedBy!: BlogAuthor | null;
  @Field(() => Int, { nullable: true, description: 'この版が戻した版（復元による保存でなければ null）' })
  restoredFrom!: number | null;
  @Field(() => [BlogRevisionChange], { description: '一つ前の版から変わったもの（最初の版は空）' })
  changes!: RevisionChange[];
  @Field() title!: string;
  @Field(() => GraphQLJSONObject, { description: '本文（Editor.js の文書）' }) content!: Record<string, unknown>;
  @Field({ description: '本文の HTML（サニタイズ済み）' }) contentHtml!: string;
  @Field(() => Int, { nullable: true }) categoryId!: number | null;
  @Field(() => String, { nullable: true, description: '保存したときのカテゴリ名' }) categoryName!: string | null;
  @Field(() => [String], { description: '保存したときのタグ' }) tagNames!: string[];
  @Field() allowComments!: boolean;
  @Field() allowLikes!: boolean;
  @Field({ description: '公開開始日 YYYY-MM-DD' }) publishStart!: string;
  @Field(() => String, { nullable: true }) publishEnd!: string | null;
  @Field() isPin!: boolean;
  @Field(() => String, { nullable: true }) pinStart!: string | null;
  @Field(() => String, { nullable: true }) pinEnd!: string | null;
  @Field({ description: '下書きとして保存された版か' }) isDraft!: boolean;
  @Field() requireConfirmation!: boolean;
  @Field(() => String, { nullable: true, description: '添付ファイル名（ファイルそのものは今の版のものだけが残る）' })
  attachmentName!: string | null;
}
