import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { NamedRef } from '../employees/employee.types.js';

@ObjectType({ simpleResolvers: true, description: 'ブログのタグ（全社共通）' })
export class BlogTagView {
  @Field(() => Int) id!: number;
  @Field({ description: 'タグの内容 (tag_content)' }) content!: string;
  @Field(() => NamedRef, {
    nullable: true,
    description:
      '作成した社員。作成者本人・管理者・システム管理者と、このタグが付いた投稿を見られる社員にだけ（ほかは null）',
  })
  createdBy!: NamedRef | null;
  @Field({ description: '閲覧中の社員がこのタグを変更・削除できるか（作成者と管理者・システム管理者）' })
  canEdit!: boolean;
  @Field(() => Int) version!: number;
}

@InputType({ description: 'タグの登録・更新' })
export class BlogTagInput {
  @Field({ description: 'タグの内容（前後の空白を除いて1〜50文字、大文字小文字を区別せず一意）' }) content!: string;
  @Field(() => Int, {
    nullable: true,
    description: '更新時、読み込んだときの version（指定すると古い場合は CONFLICT）',
  })
  version?: number | null;
}
