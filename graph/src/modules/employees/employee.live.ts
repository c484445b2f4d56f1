import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: '社員データの変更通知' })
export class EmployeeChange {
  @Field({ description: 'employee.created / employee.updated' }) type!: string;
  @Field(() => Int) employeeId!: number;
  @Field() occurredAt!: string;
}
