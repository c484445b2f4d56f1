import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: '確認（必読）を求められた閲覧者' })
export class BlogReader {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
}

@ObjectType({ simpleResolvers: true, description: '確認した閲覧者' })
export class BlogConfirmedReader extends BlogReader {
  @Field({ description: '確認した日時' }) confirmedAt!: Date;
}

@ObjectType({
  simpleResolvers: true,
  description: '速報の確認（必読）の状況（投稿の作成者だけが見られる）。閲覧者は今その投稿を見られる在籍中の社員',
})
export class BlogReadingStatus {
  @Field(() => Int) postId!: number;
  @Field(() => Int, { description: '確認した閲覧者の数' }) confirmedCount!: number;
  @Field(() => Int, { description: 'まだ確認していない閲覧者の数' }) unconfirmedCount!: number;
  // confirmed and unconfirmed: a page each (blog-reading.resolver.ts), from these whole lists.
  all!: { confirmed: BlogConfirmedReader[]; unconfirmed: BlogReader[] };
}
