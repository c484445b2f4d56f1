import { Authorized, Resolver, Root, Subscription } from 'type-graphql';
import { requireUser } from '../../platform/authz.js';
import type { AppContext } from '../../platform/context.js';
import { BlogChange } from './blog-live.types.js';
import { blogHub, changeFor } from './blog.live.js';

@Resolver()
export class BlogLiveResolver {
  @Authorized()
  @Subscription(() => BlogChange, {
    // One hub for all subscribers (blog.live.ts): each event is read up once, then judged per
    // subscriber by the visibility rule with the categories' members as they are at delivery.
    subscribe: ({ context }: { context: AppContext }) => {
      const viewer = requireUser(context);
      return blogHub(context.services.pubsub, context.em).subscribe((e) => changeFor(e, { id: viewer.id, role: viewer.role }));
    },
    description:
      'ブログの投稿の作成・編集・削除、公開開始・公開終了・ピン留めの開始と終了、カテゴリの名前・色・メンバーの変更（その投稿を見られる人にだけ、見られる形で。見られるかは配信のたびに判定）',
  })
  blogChanged(@Root() change: BlogChange): BlogChange {
    return change; // already this viewer's class view (no context read: the result is shared by the class)
  }
}
