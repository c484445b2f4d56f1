import { Args, ArgsType, Authorized, Field, Resolver, Root, Subscription } from 'type-graphql';
import { requireUser } from '../../platform/authz.js';
import type { AppContext } from '../../platform/context.js';
import { BlogChange } from './blog-live.types.js';
import { blogHub, changeFor } from './blog.live.js';
import { BlogFeedFilter } from './blog-post.types.js';

@ArgsType()
class BlogChangedArgs {
  @Field(() => BlogFeedFilter, {
    nullable: true,
    description:
      '開いている一覧の絞り込み（blogFeed の filter と同じ）。渡すと投稿の変更ごとに inFeed（その一覧に載るか）が付く。絞り込みを変えたら購読し直す。',
  })
  feed?: BlogFeedFilter | null;
}

@Resolver()
export class BlogLiveResolver {
  @Authorized()
  @Subscription(() => BlogChange, {
    // One hub for all subscribers (blog.live.ts): each event is read up once, then judged per
    // subscriber by the visibility rule with the categories' members as they are at delivery.
    // The feed's filter is checked once, as blogFeed checks it (a bad one refuses the subscription).
    subscribe: ({ context, args }: { context: AppContext; args: BlogChangedArgs }) => {
      const viewer = requireUser(context);
      const filter = args.feed;
      const feed = filter
        ? { filter, outsideWindow: context.services.blog.posts.checkFeed(viewer, filter) }
        : undefined;
      return blogHub(context.services.pubsub, context.em).subscribe((e) =>
        changeFor(e, { id: viewer.id, role: viewer.role }, feed),
      );
    },
    description:
      'ブログの投稿の作成・編集・削除、公開開始・公開終了・ピン留めの開始と終了、カテゴリの名前・色・メンバーの変更（その投稿を見られる人にだけ、見られる形で。見られるかは配信のたびに判定）',
  })
  blogChanged(@Root() change: BlogChange, @Args() _args: BlogChangedArgs): BlogChange {
    return change; // already this viewer's class view (no context read: the result is shared by the class)
  }
}
