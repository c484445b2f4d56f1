import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EmployeeRole } from '../employees/employee.enums.js';

@ObjectType({ simpleResolvers: true, description: 'APIキーを作成・失効した社員' })
export class ApiKeyActor {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'ほかの社内ツール用のAPIキー（秘密の値は作成時に一度だけ返す）' })
export class ApiKey {
  @Field(() => Int) id!: number;
  @Field({ description: '用途の分かる名前' }) name!: string;
  @Field({ description: 'キーの先頭（見分けるためだけの値。これでは使えない）' }) prefix!: string;
  @Field(() => EmployeeRole, { description: 'このキーで動くときの権限' }) role!: EmployeeRole;
  @Field({ description: '読み取り専用（GraphQL の mutation と /api の GET 以外を拒否）' }) readOnly!: boolean;
  @Field(() => Date, { nullable: true, description: '有効期限（なしなら失効するまで）' }) expiresAt!: Date | null;
  @Field() createdAt!: Date;
  @Field(() => ApiKeyActor, { description: '作成した管理者（キーはこの社員として動く）' }) createdBy!: ApiKeyActor;
  @Field(() => Date, { nullable: true, description: '最後に使われた日時（1分単位）' }) lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true }) revokedAt!: Date | null;
  @Field(() => ApiKeyActor, { nullable: true, description: '失効させた管理者' }) revokedBy!: ApiKeyActor | null;
}

@ObjectType({ simpleResolvers: true })
export class ApiKeyCreated {
  @Field(() => ApiKey) apiKey!: ApiKey;
  @Field({ description: 'Authorization: Bearer に使う秘密の値。この一度だけ返し、サーバーには残らない' })
  secret!: string;
}

@InputType()
export class ApiKeyInput {
  @Field({ description: '用途の分かる名前（100文字以内）' }) name!: string;
  @Field(() => EmployeeRole, { description: 'このキーで動くときの権限' }) role!: EmployeeRole;
  @Field({ description: '読み取り専用にする' }) readOnly!: boolean;
  @Field(() => Date, { nullable: true, description: '有効期限（省略すると失効させるまで）' }) expiresAt?: Date | null;
}
