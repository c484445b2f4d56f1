import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EmployeeRole, EmployeeStatus } from './employee.enums.js';

@ObjectType({ simpleResolvers: true, description: '部署・拠点などの名前付き参照' })
export class NamedRef {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType({ simpleResolvers: true, description: '社員' })
export class EmployeeView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => EmployeeRole) role!: EmployeeRole;
  @Field({ description: '管理者 / デバイス管理者 / システム管理者 / 一般' }) roleLabel!: string;
  @Field(() => EmployeeStatus) status!: EmployeeStatus;
  @Field({ description: '在籍 / 退職' }) statusLabel!: string;
  @Field(() => NamedRef, { nullable: true }) department!: NamedRef | null;
  @Field(() => NamedRef, { nullable: true }) location!: NamedRef | null;
  @Field(() => String, { nullable: true, description: 'ログインID。管理者・システム管理者と本人にだけ返る。' })
  loginId!: string | null;
  @Field(() => Int) version!: number;
  /** Set where a sign-in answers (auth.service.ts): the session's flag, before the session is the request's. */
  mustChangePassword?: boolean | null;
}

@ObjectType({ simpleResolvers: true })
export class EmployeePage {
  @Field(() => [EmployeeView]) items!: EmployeeView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType()
export class EmployeeFilter {
  @Field({ nullable: true, description: '氏名の部分一致' }) name?: string;
  @Field(() => Int, { nullable: true }) departmentId?: number;
  @Field({ nullable: true, defaultValue: false, description: '退職者も表示する' }) includeRetired?: boolean;
  @Field(() => [Int], {
    nullable: true,
    description:
      'これらの社員IDを除く（部署のメンバー選択で、すでにメンバーの社員）。件数とページもそのうえで数える。最大10,000件。',
  })
  excludeIds?: number[];
}

@InputType({ description: '社員の登録・更新。部署は部署画面でメンバーとして設定する。' })
export class EmployeeInput {
  @Field({ description: '氏名' }) name!: string;
  @Field(() => String, { nullable: true, description: 'メールアドレス' }) email?: string | null;
  @Field({ description: 'ログインID' }) loginId!: string;
  @Field(() => String, {
    nullable: true,
    description: 'パスワード（登録時は必須。更新時は変更するときだけ。10文字以上）',
  })
  password?: string | null;
  @Field(() => EmployeeRole, { description: '権限' }) role!: EmployeeRole;
  @Field(() => EmployeeStatus, { description: '状態' }) status!: EmployeeStatus;
  @Field(() => Int, { nullable: true, description: '拠点の ID' }) locationId?: number | null;
  @Field(() => Int, { nullable: true, description: 'バージョン（更新時は必須: 読み込んだときの version）' })
  version?: number;
}
