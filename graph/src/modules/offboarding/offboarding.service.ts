import type { AppContext } from '../../platform/context.js';
import { checkId } from '../../platform/validation.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { DEVICE_ROLES, type EmployeeStatus } from '../employees/employee.enums.js';
import type { ComputerAdminService } from '../computers/computer.admin.js';
import type { ComputerService } from '../computers/computer.service.js';
import { holder } from '../devices/device.queries.js';
import type { DeviceHolder } from '../devices/device.types.js';
import type { OfficeAccountService } from '../office-accounts/office-account.service.js';
import type { EmployeeDevices } from './offboarding.types.js';
import type { SmartphoneAdminService } from '../smartphones/smartphone.admin.js';
import type { SmartphoneService } from '../smartphones/smartphone.service.js';

const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

/**
 * Offboarding: what an employee still holds (computers and smartphones where they are the current
 * user, and the Office accounts tied to those computers), and handing all of it back in one
 * transaction. Office accounts stay tied to their computers: they belong to the machine.
 */
export class OffboardingService {
  constructor(
    private readonly computers: ComputerService,
    private readonly smartphones: SmartphoneService,
    private readonly officeAccounts: OfficeAccountService,
    private readonly computerAdmin: ComputerAdminService,
    private readonly smartphoneAdmin: SmartphoneAdminService,
  ) {}

  async holdings(ctx: AppContext, employeeId: number): Promise<EmployeeDevices> {
    requireUser(ctx, DEVICE_ROLES);
    const employee = await this.employee(ctx, employeeId);
    const all = { currentUserId: employeeId, showDiscarded: true };
    return {
      employee,
      computers: await collect(this.computers.all(ctx, all)),
      smartphones: await collect(this.smartphones.all(ctx, all)),
      officeAccounts: await collect(this.officeAccounts.all(ctx, { heldByEmployeeId: employeeId })),
    };
  }

  /** Returns everything the employee holds; answers with the devices as they are after the return. */
  async returnAll(ctx: AppContext, employeeId: number): Promise<EmployeeDevices> {
    const user = requireUser(ctx, DEVICE_ROLES);
    const employee = await this.employee(ctx, employeeId);
    const { computerIds, smartphoneIds } = await ctx.em.transactional(async (tx) => {
      const computerIds = await this.computerAdmin.returnFrom(tx, employeeId, user.id);
      const smartphoneIds = await this.smartphoneAdmin.returnFrom(tx, employeeId, user.id);
      await tx.flush();
      return { computerIds, smartphoneIds };
    });
    return {
      employee,
      computers: computerIds.length
        ? await collect(this.computers.all(ctx, { ids: computerIds, showDiscarded: true }))
        : [],
      smartphones: smartphoneIds.length
        ? await collect(this.smartphones.all(ctx, { ids: smartphoneIds, showDiscarded: true }))
        : [],
      officeAccounts: computerIds.length ? await collect(this.officeAccounts.all(ctx, { computerIds })) : [],
    };
  }

  private async employee(ctx: AppContext, id: number): Promise<DeviceHolder> {
    checkId(id, '社員');
    const [r]: { id: number; name: string; status: EmployeeStatus }[] = await ctx.em.execute(
      `select id, name, status from employee where id = ?`,
      [id],
    );
    if (!r) throw notFound('社員');
    return holder(r.id, r.name, r.status)!;
  }
}
