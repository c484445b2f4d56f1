import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { NamedRef } from '../employees/employee.types.js';
import { BlogCategoryPermission } from './blog.enums.js';
import { CATEGORY_FIELDS as F } from './blog-category.fields.js';

@ObjectType({
  simpleResolvers: true,
  description: 'ブログのカテゴリ。メンバー（個別の社員と部署）だけがその投稿を見られる。',
})
export class BlogCategoryView {
  @Field(() => Int) id!: number;
  @Field({ description: F.name.description }) name!: string;
  @Field({ description: F.color.description }) color!: string;
  @Field(() => [BlogCategoryPermission], { description: F.permissions.description })
  permissions!: BlogCategoryPermission[];
  @Field({ description: '閲覧中の社員がこのカテゴリに投稿できるか' }) canPost!: boolean;
  @Field({
    description:
      '閲覧中の社員がこのカテゴリのメンバーか（個別指定または所属部署）。管理者にも当てはまり、メンバーでなければ投稿一覧には出ない。',
  })
  isMember!: boolean;
  @Field(() => [NamedRef], { description: '閲覧できる社員（個別に指定した人）' }) employees!: NamedRef[];
  @Field(() => [NamedRef], { description: '閲覧できる部署（その部署の今のメンバー全員が見られる）' })
  departments!: NamedRef[];
  @Field({ description: '登録日時 (ins_dt)' }) createdAt!: Date;
  @Field({ description: '更新日時 (upd_dt)' }) updatedAt!: Date;
  @Field(() => Int) version!: number;
}

@InputType({ description: 'ブログカテゴリの登録・更新（管理者・システム管理者）' })
export class BlogCategoryInput {
  @Field({ description: F.name.description }) name!: string;
  @Field(() => String, { nullable: true, description: F.color.description }) color?: string | null;
  @Field(() => [BlogCategoryPermission], { description: F.permissions.description })
  permissions!: BlogCategoryPermission[];
  @Field(() => [Int], { description: `${F.employeeIds.description}。この一覧がそのまま個別メンバーになる。` })
  employeeIds!: number[];
  @Field(() => [Int], { description: `${F.departmentIds.description}。この一覧がそのまま部署メンバーになる。` })
  departmentIds!: number[];
  @Field(() => Int, { nullable: true, description: '更新時は必須（読み込んだときの version）' }) version?: number;
}
