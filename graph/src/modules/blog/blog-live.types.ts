import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BlogCategoryRef, BlogPostView } from './blog-post.types.js';

/** What happened, as a feed needs to know it. */
export enum BlogChangeKind {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  DELETED = 'DELETED',
  /** The publish start arrived (the scheduler). */
  PUBLISHED = 'PUBLISHED',
  /** The publish end passed (the scheduler). */
  EXPIRED = 'EXPIRED',
  /** The post entered 速報 (the scheduler). */
  PIN_STARTED = 'PIN_STARTED',
  /** The post left 速報 (the scheduler). */
  PIN_ENDED = 'PIN_ENDED',
  /** A category the viewer belongs to was renamed or recoloured: its cards change their label. */
  CATEGORY_UPDATED = 'CATEGORY_UPDATED',
  /** The viewer joined or left a category (or moved department): the posts they may see changed, the feed reloads. */
  ACCESS_CHANGED = 'ACCESS_CHANGED',
  /** Someone liked or unliked the post, or opened it for the first time (its counts); the viewer saved or unsaved it. */
  ENGAGEMENT_CHANGED = 'ENGAGEMENT_CHANGED',
  /** A comment or reply was added to the post, or deleted with its replies: its thread and commentCount. */
  COMMENTS_CHANGED = 'COMMENTS_CHANGED',
}

registerEnumType(BlogChangeKind, {
  name: 'BlogChangeKind',
  description: 'ブログのライブ更新の種類',
  valuesConfig: {
    CREATED: { description: '投稿された' },
    UPDATED: { description: '編集された' },
    DELETED: { description: '削除された' },
    PUBLISHED: { description: '公開開始日になった' },
    EXPIRED: { description: '公開終了日を過ぎた' },
    PIN_STARTED: { description: '速報に入った（ピン留め期間の開始）' },
    PIN_ENDED: { description: '速報から外れた（ピン留め期間の終了）' },
    CATEGORY_UPDATED: { description: '所属するカテゴリの名前・色が変わった' },
    ACCESS_CHANGED: { description: '見られるカテゴリが変わった（メンバーへの追加・削除、部署異動）。一覧を読み直す。' },
    ENGAGEMENT_CHANGED: { description: 'いいね・既読・確認（必読）の数が変わった、または自分が保存・保存解除した' },
    COMMENTS_CHANGED: { description: 'コメント・返信が追加または削除された（コメント一覧と commentCount を読み直す）' },
  },
});

@ObjectType({
  simpleResolvers: true,
  description:
    'ブログのライブ更新。届くのはその投稿を見られる人（または直前まで見られた人）だけ。post は閲覧者に見える形の投稿で、削除されたか見られなくなったときは null（一覧から外す）。',
})
export class BlogChange {
  @Field(() => BlogChangeKind) kind!: BlogChangeKind;
  @Field(() => Int, { nullable: true, description: '投稿の変更なら投稿 ID' }) postId!: number | null;
  @Field(() => BlogPostView, {
    nullable: true,
    description: '閲覧者に見える今の投稿（削除・見られなくなったときは null）',
  })
  post!: BlogPostView | null;
  @Field(() => Int, { nullable: true, description: 'カテゴリの変更ならカテゴリ ID' }) categoryId!: number | null;
  @Field(() => BlogCategoryRef, { nullable: true, description: 'CATEGORY_UPDATED: カテゴリの今の名前と色' })
  category!: BlogCategoryRef | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      'blogChanged に feed（一覧の絞り込み）を渡したとき: この投稿がその絞り込みの blogFeed に載るか（blogFeed と同じ規則で判定。false なら一覧から外す）。feed なし、または投稿の変更でなければ null。',
  })
  inFeed!: boolean | null;
}
