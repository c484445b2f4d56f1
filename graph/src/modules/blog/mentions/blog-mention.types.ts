import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'メンションできる社員（投稿を読める人）' })
export class BlogMentionCandidate {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
}
