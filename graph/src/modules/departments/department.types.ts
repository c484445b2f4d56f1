import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EmployeeStatus } from '../employees/employee.enums.js';

@ObjectType({ simpleResolvers: true, description: '部署のメンバー・責任者として表示する社員' })
export class EmployeeRef {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
  @Field(() => EmployeeStatus) status!: EmployeeStatus;
  @Field() statusLabel!: string;
}

@ObjectType({ simpleResolvers: true, description: '部署' })
export class DepartmentView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => EmployeeRef, { nullable: true }) manager!: EmployeeRef | null;
  @Field(() => [EmployeeRef]) members!: EmployeeRef[];
  @Field(() => Int) memberCount!: number;
  @Field({ description: '登録日時 (ins_dt)' }) createdAt!: Date;
  @Field({ description: '更新日時 (upd_dt)' }) updatedAt!: Date;
  @Field(() => Int) version!: number;
}

@ObjectType({ simpleResolvers: true })
export class DepartmentPage {
  @Field(() => [DepartmentView]) items!: DepartmentView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType()
export class DepartmentInput {
  @Field({ description: '部署名' }) name!: string;
  @Field(() => Int, { nullable: true, description: '部署長の社員 ID' }) managerId?: number | null;
  @Field(() => [Int], { description: 'メンバーの社員ID（この一覧がそのまま部署のメンバーになる）' })
  memberIds!: number[];
  @Field(() => Int, { nullable: true, description: 'バージョン（更新時は必須: 読み込んだときの version）' })
  version?: number;
}
