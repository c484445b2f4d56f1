import { Field, ObjectType } from 'type-graphql';
import { ComputerView } from '../computers/computer.types.js';
import { DeviceHolder } from '../devices/device.types.js';
import { OfficeAccountView } from '../office-accounts/office-account.types.js';
import { SmartphoneView } from '../smartphones/smartphone.types.js';

@ObjectType({
  simpleResolvers: true,
  description: '社員が使用中の端末と、その端末に紐付く Office アカウント（返却後は返却したもの）',
})
export class EmployeeDevices {
  @Field(() => DeviceHolder) employee!: DeviceHolder;
  @Field(() => [ComputerView]) computers!: ComputerView[];
  @Field(() => [SmartphoneView]) smartphones!: SmartphoneView[];
  @Field(() => [OfficeAccountView], {
    description: 'パソコンに紐付く Office アカウント（返却してもパソコンに紐付いたまま）',
  })
  officeAccounts!: OfficeAccountView[];
}
