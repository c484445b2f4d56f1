import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { EmployeeRole } from '../employees/employee.enums.js';
import { ApiKey, ApiKeyCreated, ApiKeyInput } from './api-key.types.js';

/** API keys for other internal tools: 管理者 and システム管理者 only (the service checks again). */
@Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
@Resolver()
export class ApiKeyResolver {
  @Query(() => [ApiKey], { description: 'APIキーの一覧（失効したものも、作成・失効の記録として）' })
  apiKeys(@Ctx() ctx: AppContext): Promise<ApiKey[]> {
    return ctx.services.apiKeys.list(ctx);
  }

  @Mutation(() => ApiKeyCreated, { description: 'APIキーを作る。秘密の値はこの答えで一度だけ返る' })
  createApiKey(@Ctx() ctx: AppContext, @Arg('input', () => ApiKeyInput) input: ApiKeyInput): Promise<ApiKeyCreated> {
    return ctx.services.apiKeys.create(ctx, input);
  }

  @Mutation(() => ApiKey, { description: 'APIキーを失効させる（すべてのインスタンスで、次の要求から使えない）' })
  revokeApiKey(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<ApiKey> {
    return ctx.services.apiKeys.revoke(ctx, id);
  }
}
