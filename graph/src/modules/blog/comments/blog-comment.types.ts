import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { BlogAttachment, MentionedPerson } from '../blog-post.types.js';

@ObjectType({
  simpleResolvers: true,
  description: 'コメントした社員（社員が削除されていれば id は null、名前は Unknown）',
})
export class BlogCommentAuthor {
  @Field(() => Int, { nullable: true }) id!: number | null;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'ブログのコメント（返信は一段: 返信への返信は元のコメントに付く）' })
export class BlogComment {
  @Field(() => Int) id!: number;
  @Field(() => Int) postId!: number;
  @Field(() => BlogCommentAuthor) author!: BlogCommentAuthor;
  @Field({ description: '本文（2000 文字以内）' }) content!: string;
  @Field(() => Int, { nullable: true, description: '返信なら返信先のコメント ID（最上位は null）' }) parentId!:
    number | null;
  @Field(() => BlogAttachment, { nullable: true, description: '添付ファイル（1 件。/api から添付）' })
  attachment!: BlogAttachment | null;
  @Field() createdAt!: Date;
  @Field(() => Date, {
    nullable: true,
    description: '本文を最後に編集した日時（編集していなければ null。「編集済み」）',
  })
  editedAt!: Date | null;
  @Field(() => [MentionedPerson], { description: '本文がメンションしている社員（本文に @氏名 で書かれている）' })
  mentions!: MentionedPerson[];
  @Field({ description: '閲覧中の社員が本文を編集できるか（コメントした本人だけ）' }) canEdit!: boolean;
  @Field({ description: '閲覧中の社員が削除できるか（コメントした本人と投稿の作成者）' }) canDelete!: boolean;
  @Field(() => [BlogComment], {
    description: '返信（古い順、一覧では最初の10件まで。続きは blogCommentReplies。返信には返信がない）',
  })
  replies!: BlogComment[];
  @Field(() => Int, { description: '返信の数（返信なら0）' }) replyCount!: number;
}

@ObjectType({ simpleResolvers: true, description: '投稿のコメントの1ページ（古い順）' })
export class BlogCommentPage {
  @Field(() => [BlogComment], { description: '最上位のコメント（それぞれ最初の返信つき）' }) items!: BlogComment[];
  @Field(() => String, { nullable: true, description: '次のページの after（最後のページなら null）。中身に意味はない' })
  nextCursor!: string | null;
  @Field(() => Int, { description: 'コメントの数（返信を含む）' }) totalCount!: number;
}

@ObjectType({ simpleResolvers: true, description: 'コメントへの返信の1ページ（古い順）' })
export class BlogCommentReplyPage {
  @Field(() => [BlogComment]) items!: BlogComment[];
  @Field(() => String, { nullable: true, description: '次のページの after（最後のページなら null）。中身に意味はない' })
  nextCursor!: string | null;
}

@InputType()
export class BlogCommentInput {
  @Field(() => Int) postId!: number;
  @Field({ description: '本文（空白だけは不可、2000 文字以内）' }) content!: string;
  @Field(() => Int, { nullable: true, description: '返信先のコメント ID' }) parentId?: number | null;
  @Field(() => [Int], {
    nullable: true,
    description: 'メンションする社員の ID（それぞれ本文に @氏名 で書く。投稿を読める人だけ、20人まで。通知が届く）',
  })
  mentionIds?: number[] | null;
}
