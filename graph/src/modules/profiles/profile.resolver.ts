import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { COMMENT_PAGE, REPLY_PAGE } from '../../platform/comment-thread.js';
import { requireUser } from '../../platform/authz.js';
import { liveHub } from '../../platform/live/hub.js';
import { ProfileChange, profileChangeOf } from './profile.live.js';
import {
  Profile,
  ProfileComment,
  ProfileCommentInput,
  ProfileCommentPage,
  ProfileCommentReplyPage,
  ProfileInput,
  ProfileLiker,
  ProfileListArgs,
  ProfilePage,
} from './profile.types.js';

/** Profiles, their likes and comments: every signed-in employee reads, likes and comments; only the owner writes. */
@Authorized()
@Resolver()
export class ProfileResolver {
  @Query(() => ProfilePage, {
    description: 'プロフィールの一覧（登録順）。役職・氏名・部署と、スキルなどの語で絞り込む',
  })
  profiles(@Ctx() ctx: AppContext, @Args() args: ProfileListArgs): Promise<ProfilePage> {
    return ctx.services.profiles.profiles.list(ctx, args, args.offset, args.limit);
  }

  @Query(() => Profile, { description: 'プロフィール（ないときは NOT_FOUND）' })
  profile(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<Profile> {
    return ctx.services.profiles.profiles.get(ctx, id);
  }

  @Query(() => Profile, {
    nullable: true,
    description:
      '社員のプロフィール（まだ作っていなければ null。社員がいなければ NOT_FOUND）。employeeId を省くと自分のもの',
  })
  employeeProfile(
    @Ctx() ctx: AppContext,
    @Arg('employeeId', () => Int, { nullable: true }) employeeId: number | null,
  ): Promise<Profile | null> {
    return ctx.services.profiles.profiles.ofEmployee(ctx, employeeId ?? ctx.user!.id);
  }

  @Query(() => [ProfileLiker], {
    description: 'プロフィールにいいねした社員の1ページ（新しい順。全体の数は Profile.likeCount）',
  })
  profileLikers(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Args() page: PageArgs,
  ): Promise<ProfileLiker[]> {
    return ctx.services.profiles.profiles.likers(ctx, id, page.offset, page.limit);
  }

  @Mutation(() => Profile, { description: '自分のプロフィールを作る（すでにあれば CONFLICT）' })
  createProfile(@Ctx() ctx: AppContext, @Arg('input', () => ProfileInput) input: ProfileInput): Promise<Profile> {
    return ctx.services.profiles.profiles.create(ctx, { ...input }, 'document');
  }

  @Mutation(() => Profile, { description: '自分のプロフィールを更新する（本人だけ。version が古ければ CONFLICT）' })
  updateProfile(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ProfileInput) input: ProfileInput,
  ): Promise<Profile> {
    return ctx.services.profiles.profiles.update(ctx, id, { ...input }, 'document');
  }

  @Mutation(() => Profile, { description: 'プロフィールにいいねする・取り消す（自分のいいねだけ）' })
  async likeProfile(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('liked') liked: boolean,
  ): Promise<Profile> {
    await ctx.services.profiles.profiles.setLike(ctx, id, liked);
    return ctx.services.profiles.profiles.get(ctx, id);
  }

  @Query(() => ProfileCommentPage, { description: 'プロフィールのコメントの1ページ（古い順、それぞれ最初の返信つき）' })
  profileComments(
    @Ctx() ctx: AppContext,
    @Arg('profileId', () => Int) profileId: number,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after: string | null,
    @Arg('limit', () => Int, {
      nullable: true,
      description: `1〜${COMMENT_PAGE.max}（省略すると${COMMENT_PAGE.fallback}）`,
    })
    limit: number | null,
  ): Promise<ProfileCommentPage> {
    return ctx.services.profiles.comments.list(ctx, profileId, after, limit);
  }

  @Query(() => ProfileCommentReplyPage, { description: 'プロフィールのコメントへの返信の1ページ（古い順）' })
  profileCommentReplies(
    @Ctx() ctx: AppContext,
    @Arg('commentId', () => Int) commentId: number,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after: string | null,
    @Arg('limit', () => Int, {
      nullable: true,
      description: `1〜${REPLY_PAGE.max}（省略すると${REPLY_PAGE.fallback}）`,
    })
    limit: number | null,
  ): Promise<ProfileCommentReplyPage> {
    return ctx.services.profiles.comments.replies(ctx, commentId, after, limit);
  }

  @Mutation(() => ProfileComment, {
    description: 'プロフィールにコメント・返信する（返信への返信は元のコメントに付く）',
  })
  addProfileComment(
    @Ctx() ctx: AppContext,
    @Arg('input', () => ProfileCommentInput) input: ProfileCommentInput,
  ): Promise<ProfileComment> {
    return ctx.services.profiles.comments.add(ctx, {
      profileId: input.profileId,
      content: input.content,
      parentId: input.parentId ?? null,
    });
  }

  @Mutation(() => ProfileComment, {
    description:
      'プロフィールのコメント・返信の本文を編集する（コメントした本人だけ: 他の人は FORBIDDEN。編集すると editedAt が付く）',
  })
  editProfileComment(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('content', { description: '本文（空白だけは不可、2000 文字以内）' }) content: string,
  ): Promise<ProfileComment> {
    return ctx.services.profiles.comments.edit(ctx, id, content);
  }

  @Mutation(() => Boolean, {
    description: 'プロフィールのコメントを削除する（返信も消える）。コメントした本人とプロフィールの持ち主だけ',
  })
  deleteProfileComment(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<boolean> {
    return ctx.services.profiles.comments.delete(ctx, id);
  }

  @Subscription(() => ProfileChange, {
    // One pubsub listener for every subscriber (platform/live/hub.ts); each keeps the profile it watches.
    subscribe: ({ args, context }: { args: { profileId?: number | null }; context: AppContext }) => {
      requireUser(context);
      return liveHub(context.services.pubsub, 'profile').subscribe((e) => {
        const change = profileChangeOf(e);
        return args.profileId == null || change.profileId === args.profileId ? change : undefined;
      });
    },
    description: 'プロフィールの保存・いいね・コメント（profileId を省くとすべてのプロフィール: 一覧の画面用）',
  })
  profileChanged(
    @Root() change: ProfileChange,
    @Arg('profileId', () => Int, { nullable: true }) _profileId?: number | null,
  ): ProfileChange {
    return change;
  }
}
