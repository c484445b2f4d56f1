import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EmployeeStatus } from '../employees/employee.enums.js';
import { PageArgs } from '../../platform/pagination.js';
import { ProfileVisibility } from './profile.fields.js';

@ObjectType({ simpleResolvers: true, description: 'プロフィールの画像（表示用と縮小版。WebP、メタデータなし）' })
export class ProfileImage {
  @Field() url!: string;
  @Field() thumbnailUrl!: string;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: '社員のプロフィール。氏名・部署・勤務地・在籍状況・メールは社員マスタから読む（写しではない）',
})
export class Profile {
  @Field(() => Int) id!: number;
  @Field(() => Int) employeeId!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => EmployeeStatus, { description: 'RETIRED（退職）ならプロフィールは読み取り専用' })
  status!: EmployeeStatus;
  @Field(() => Int, { nullable: true }) departmentId!: number | null;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
  @Field(() => String, { nullable: true }) locationName!: string | null;
  @Field({ description: '役職・肩書き' }) title!: string;
  @Field(() => String, { nullable: true, description: '住所（公開範囲の外の人には null）' }) address!: string | null;
  @Field(() => ProfileVisibility) addressVisibility!: ProfileVisibility;
  @Field(() => String, { nullable: true, description: '電話番号（公開範囲の外の人には null）' }) phone!: string | null;
  @Field(() => ProfileVisibility) phoneVisibility!: ProfileVisibility;
  @Field(() => [String], { description: 'スキル（10件まで）' }) skills!: string[];
  @Field(() => [String], { description: '言語（10件まで）' }) languages!: string[];
  @Field(() => [String], { description: '職歴（10件まで）' }) workExperience!: string[];
  @Field(() => [String], { description: '学歴（10件まで）' }) education!: string[];
  @Field(() => GraphQLJSONObject, { description: '自己紹介（Editor.js の文書）' }) aboutMe!: Record<string, unknown>;
  @Field({ description: '自己紹介の HTML（許可リストで無害化済み）' }) aboutMeHtml!: string;
  @Field({ description: '趣味' }) hobbies!: string;
  @Field({ description: '特技' }) talents!: string;
  @Field(() => ProfileImage, { nullable: true, description: 'プロフィール画像（正方形。縮小版は 96 px）' })
  avatar!: ProfileImage | null;
  @Field(() => [ProfileImage], { description: '趣味の写真（10枚まで）' }) hobbyImages!: ProfileImage[];
  @Field(() => [ProfileImage], { description: '特技の写真（10枚まで）' }) talentImages!: ProfileImage[];
  @Field(() => [ProfileImage], { description: 'ヘッダーの背景画像（10枚まで）' }) headerImages!: ProfileImage[];
  @Field(() => Int) likeCount!: number;
  @Field() likedByMe!: boolean;
  @Field(() => Int, { description: 'コメントの数（返信を含む）' }) commentCount!: number;
  @Field({ description: '閲覧中の社員が編集できるか（本人で、在籍中のとき）' }) canEdit!: boolean;
  @Field(() => Int, { description: '楽観ロックの版: 更新のときに送り返す' }) version!: number;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'プロフィールの一覧の1ページ' })
export class ProfilePage {
  @Field(() => [Profile]) items!: Profile[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@ArgsType()
export class ProfileListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: '役職・肩書き（部分一致）' }) title?: string | null;
  @Field(() => String, { nullable: true, description: '氏名（部分一致）' }) name?: string | null;
  @Field(() => Int, { nullable: true }) departmentId?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'スキル・言語・職歴・学歴・趣味・特技・自己紹介から探す語（1文字から）',
  })
  q?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'プロフィールにいいねした社員' })
export class ProfileLiker {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
  @Field(() => String, { nullable: true }) locationName!: string | null;
  @Field(() => EmployeeStatus) status!: EmployeeStatus;
  @Field(() => String, { nullable: true }) email!: string | null;
}

@InputType({ description: '本人が書くプロフィールの項目。省略した項目は変わらない（null や空で消す）' })
export class ProfileInput {
  @Field(() => String, { nullable: true, description: '役職・肩書き' }) title?: string | null;
  @Field(() => String, { nullable: true, description: '住所' }) address?: string | null;
  @Field(() => ProfileVisibility, { nullable: true, description: '住所の公開範囲' })
  addressVisibility?: ProfileVisibility | null;
  @Field(() => String, { nullable: true, description: '電話番号' }) phone?: string | null;
  @Field(() => ProfileVisibility, { nullable: true, description: '電話番号の公開範囲' })
  phoneVisibility?: ProfileVisibility | null;
  @Field(() => [String], { nullable: true, description: 'スキル（10件まで。空の項目は保存時に除く）' }) skills?:
    string[] | null;
  @Field(() => [String], { nullable: true, description: '言語（10件まで）' }) languages?: string[] | null;
  @Field(() => [String], { nullable: true, description: '職歴（10件まで）' }) workExperience?: string[] | null;
  @Field(() => [String], { nullable: true, description: '学歴（10件まで）' }) education?: string[] | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '自己紹介（Editor.js の文書。画像は不可）' })
  aboutMe?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: '趣味' }) hobbies?: string | null;
  @Field(() => String, { nullable: true, description: '特技' }) talents?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'プロフィール画像の URL（POST /api/profile_images の url。null で外す）',
  })
  avatar?: string | null;
  @Field(() => [String], { nullable: true, description: '趣味の写真の URL（順に。10枚まで）' }) hobbyImages?:
    string[] | null;
  @Field(() => [String], { nullable: true, description: '特技の写真の URL' }) talentImages?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'ヘッダーの背景画像の URL' }) headerImages?: string[] | null;
  @Field(() => Int, { nullable: true, description: 'バージョン（読んだときの version。別の保存と重なれば CONFLICT）' })
  version?: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'コメントした社員（社員が削除されていれば id は null、名前は Unknown）',
})
export class ProfileCommentAuthor {
  @Field(() => Int, { nullable: true }) id!: number | null;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'プロフィールへのコメント（返信は一段）' })
export class ProfileComment {
  @Field(() => Int) id!: number;
  @Field(() => Int) profileId!: number;
  @Field(() => ProfileCommentAuthor) author!: ProfileCommentAuthor;
  @Field() content!: string;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
  @Field() createdAt!: Date;
  @Field(() => Date, {
    nullable: true,
    description: '本文を最後に編集した日時（編集していなければ null。「編集済み」）',
  })
  editedAt!: Date | null;
  @Field({ description: '閲覧中の社員が本文を編集できるか（コメントした本人だけ）' }) canEdit!: boolean;
  @Field({ description: '閲覧中の社員が削除できるか（コメントした本人とプロフィールの持ち主）' }) canDelete!: boolean;
  @Field(() => [ProfileComment], { description: '返信（古い順、一覧では最初の10件まで）' }) replies!: ProfileComment[];
  @Field(() => Int) replyCount!: number;
}

@ObjectType({ simpleResolvers: true })
export class ProfileCommentPage {
  @Field(() => [ProfileComment]) items!: ProfileComment[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
  @Field(() => Int) totalCount!: number;
}

@ObjectType({ simpleResolvers: true })
export class ProfileCommentReplyPage {
  @Field(() => [ProfileComment]) items!: ProfileComment[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}

@InputType()
export class ProfileCommentInput {
  @Field(() => Int) profileId!: number;
  @Field({ description: '本文（空白だけは不可、2000 文字以内）' }) content!: string;
  @Field(() => Int, { nullable: true }) parentId?: number | null;
}
