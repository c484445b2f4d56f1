import {
  Arg,
  Authorized,
  Ctx,
  Field,
  FieldResolver,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { EmployeeRole } from '../employees/employee.enums.js';
import type { AppContext } from '../../platform/context.js';
import { PASSWORD_PENDING, PUBLIC } from '../../platform/authz.js';
import { EmployeeView } from '../employees/employee.types.js';

@InputType()
export class LoginInput {
  @Field() loginId!: string;
  @Field() password!: string;
  @Field({ defaultValue: false, description: 'ログイン状態を保持する（長いセッション・永続クッキー）' })
  rememberMe!: boolean;
}

@InputType()
export class ChangePasswordInput {
  @Field() currentPassword!: string;
  @Field({ description: '10〜256文字' }) newPassword!: string;
}

@ObjectType({ simpleResolvers: true })
export class LoginPayload {
  @Field(() => EmployeeView) employee!: EmployeeView;
  @Field({ description: 'Bearer トークン（ブラウザは HttpOnly クッキーを使うので不要）' }) token!: string;
  @Field() expiresAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class AuthSettings {
  @Field(() => String, {
    nullable: true,
    description: 'Google Identity Services のクライアントID。未設定ならGoogleログインは無効。',
  })
  googleClientId!: string | null;
}

@Resolver()
export class AuthResolver {
  @Authorized(PUBLIC)
  @Query(() => EmployeeView, { nullable: true, description: 'ログイン中の社員（未ログインなら null）' })
  me(@Ctx() ctx: AppContext): Promise<EmployeeView | null> {
    // Answered even before a one-time password is replaced: the app learns it must ask for a new one.
    return ctx.user ? ctx.services.employees.getFor(ctx.em, ctx.user, ctx.user.id) : Promise.resolve(null);
  }

  @Authorized(PASSWORD_PENDING)
  @Mutation(() => LoginPayload, {
    description:
      '自分のパスワードを変更する（初回ログインの仮パスワードはまずこれで変更する）。全セッションが終わり、このブラウザは新しいセッションになる',
  })
  changeOwnPassword(@Ctx() ctx: AppContext, @Arg('input') input: ChangePasswordInput): Promise<LoginPayload> {
    return ctx.services.auth.changeOwnPassword(ctx, input);
  }

  @Authorized(PUBLIC)
  @Query(() => AuthSettings)
  authSettings(@Ctx() ctx: AppContext): AuthSettings {
    return { googleClientId: ctx.services.auth.googleEnabled ? ctx.services.config.GOOGLE_CLIENT_ID! : null };
  }

  @Authorized(PUBLIC)
  @Mutation(() => LoginPayload, { description: 'ID とパスワードでログイン' })
  login(@Ctx() ctx: AppContext, @Arg('input') input: LoginInput): Promise<LoginPayload> {
    return ctx.services.auth.login(ctx, input);
  }

  @Authorized(PUBLIC)
  @Mutation(() => LoginPayload, { description: 'Google の ID トークンでログイン' })
  loginWithGoogle(
    @Ctx() ctx: AppContext,
    @Arg('credential') credential: string,
    @Arg('rememberMe', { defaultValue: false }) rememberMe: boolean,
  ): Promise<LoginPayload> {
    return ctx.services.auth.loginWithGoogle(ctx, credential, rememberMe);
  }

  @Authorized(PUBLIC)
  @Mutation(() => Boolean, { description: 'ログアウト（このセッションを無効化）' })
  logout(@Ctx() ctx: AppContext): Promise<boolean> {
    return ctx.services.auth.logout(ctx);
  }

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => Int, { description: '社員の全セッションを無効化する（強制ログアウト）。無効化した数を返す。' })
  revokeEmployeeSessions(@Ctx() ctx: AppContext, @Arg('employeeId', () => Int) employeeId: number): Promise<number> {
    return ctx.services.auth.revokeEmployeeSessions(ctx, employeeId);
  }
}

/** Whether the signed-in employee must replace a one-time password first (null for anyone else). */
@Resolver(() => EmployeeView)
export class PasswordStateResolver {
  @FieldResolver(() => Boolean, {
    nullable: true,
    description: '本人だけ: 仮パスワードのため、まずパスワードの変更が必要か（他の社員には null）',
  })
  mustChangePassword(@Ctx() ctx: AppContext, @Root() e: EmployeeView): boolean | null {
    if (e.mustChangePassword !== undefined) return e.mustChangePassword;
    return ctx.user?.id === e.id ? ctx.user.mustChangePassword : null;
  }
}
