/**
 * The soak's blog traffic and its two bystanders: the VUs read the feed, open posts, page comments,
 * comment, like and unlike, and upload pictures (each person's writes stay under the platform's
 * per-person limits at the soak's rate); a hostile client sends the 15-alias comments query in a
 * loop on the most commented post; a prober times `/healthz` four times a second meanwhile.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { pct, sleep, type SoakClient, type Vu } from './client.js';
import { LOGINS, type Login, type Loose } from './documents.js';
import type { Op } from './vus.js';

const CARD = `id title commentCount likeCount likedByMe isNew saved allowLikes allowComments
  likers { id name departmentName } author { id name } category { id name color }
  attachment { name type url thumbnailUrl }`;
export const BLOG_FEED = `query BlogFeed($filter: BlogFeedFilter, $after: String, $withPinned: Boolean!, $limit: Int) {
  blogFeed(filter: $filter, after: $after, limit: $limit) {
    items { ${CARD} contentHtml } nextCursor pinned @include(if: $withPinned) { ${CARD} }
  }
}`;
const COMMENT = `id parentId content createdAt editedAt canEdit canDelete author { id name } mentions { id name }
  attachment { name type size url thumbnailUrl }`;
export const BLOG_COMMENTS = `query BlogComments($postId: Int!, $after: String, $limit: Int) {
  blogComments(postId: $postId, after: $after, limit: $limit) {
    totalCount nextCursor items { ${COMMENT} replyCount replies { ${COMMENT} } }
  }
}`;
export const ADD_COMMENT = `mutation AddBlogComment($input: BlogCommentInput!) { addBlogComment(input: $input) { ${COMMENT} } }`;
export const LIKE = `mutation LikeBlogPost($id: Int!, $liked: Boolean!) { likeBlogPost(id: $id, liked: $liked) { ${CARD} } }`;
/** The hostile read of abuse path 1 (issue 40): 15 aliases of a post's comments at the largest page. */
export const HOSTILE = `query Hostile($postId: Int!) {\n${Array.from(
  { length: 15 },
  (_, i) =>
    `  a${i}: blogComments(postId: $postId, limit: 100) { totalCount items { ${COMMENT} replies { ${COMMENT} } } }`,
).join('\n')}\n}`;

/** The posts each login may comment on and like (its feed's first page), and a small picture to upload. */
export async function prepareBlog(client: SoakClient, vus: Vu[], log: (line: string) => void) {
  const postsOf = new Map<Login, number[]>();
  for (const login of LOGINS) {
    const vu = vus.find((v) => v.login === login);
    if (!vu) continue;
    const r = await client.request(false, 'POST', '/graphql', vu.token, {
      query: BLOG_FEED,
      variables: { withPinned: false, limit: 20 },
    });
    const items = (JSON.parse(r.body) as Loose).data?.blogFeed?.items as Loose[] | undefined;
    if (!items) throw new Error(`setup: the feed of ${login}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    const ids = items.filter((p) => p.allowComments && p.allowLikes).map((p) => p.id as number);
    if (!ids.length) throw new Error(`setup: ${login} sees no post open to comments and likes`);
    postsOf.set(login, ids.slice(0, 5));
  }
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();
  const dataUrl = `data:image/png;base64,${picture.toString('base64')}`;
  log(
    `blog: posts commented and liked ${[...postsOf].map(([l, ids]) => `${l} #${ids.join(',#')}`).join('; ')}; uploads a ${picture.length}-byte PNG`,
  );
  return { postsOf, dataUrl };
}

export type Blog = Awaited<ReturnType<typeof prepareBlog>>;

/** The VUs' blog operations (weights beside the soak's own, whose total is 97); `onComment` hears each comment saved. */
export function blogOperations(client: SoakClient, b: Blog, onComment?: (id: number) => void): Op[] {
  const rnd = (n: number) => Math.floor(Math.random() * n);
  const post = (vu: Vu) => {
    const ids = b.postsOf.get(vu.login)!;
    return ids[rnd(ids.length)]!;
  };
  let comments = 0;
  return [
    { w: 10, run: (vu) => client.gql(vu, 'list.blog.gql', BLOG_FEED, { withPinned: true, limit: 20 }) },
    { w: 4, run: (vu) => client.rest(vu, 'detail.blog.rest', 'GET', `/api/blogs/${post(vu)}`) },
    {
      w: 4,
      run: (vu) => client.gql(vu, 'list.comments.gql', BLOG_COMMENTS, { postId: post(vu), limit: 20 }),
    },
    { w: 2, run: (vu) => client.rest(vu, 'list.comments.rest', 'GET', `/api/comments/${post(vu)}?limit=20`) },
    {
      w: 2,
      run: async (vu) => {
        const r = await client.gql(vu, 'write.comment.gql', ADD_COMMENT, {
          input: { postId: post(vu), content: `ソーク中のコメント ${++comments}（VU ${vu.n}）` },
        });
        if (r.data) onComment?.(r.data.addBlogComment.id as number);
      },
    },
    // A like and, a moment later, its undo: the post's count and likers stay bounded however long the soak.
    {
      w: 2,
      run: async (vu) => {
        const id = post(vu);
        await client.gql(vu, 'write.like.gql', LIKE, { id, liked: true });
        await sleep(200 + rnd(300));
        await client.gql(vu, 'write.like.gql', LIKE, { id, liked: false });
      },
    },
    {
      w: 1,
      run: (vu) =>
        client.rest(vu, 'write.upload.rest', 'POST', '/api/blog_images', {
          name: `soak-${vu.n}.png`,
          data_url: b.dataUrl,
        }),
    },
  ];
}

export interface Bystanders {
  /** The hostile client's requests: status, bytes answered, time. */
  hostile: { status: number; bytes: number; ms: number }[];
  /** `/healthz` answer times (ms), and how many did not answer 200. */
  healthz: number[];
  healthzFailed: number;
  stop(): Promise<void>;
}

/** The hostile client (`token`: a session of its own; no think time) and the `/healthz` prober, until stopped. */
export function startBystanders(client: SoakClient, url: string, token: string, postId: number): Bystanders {
  const out: Bystanders = { hostile: [], healthz: [], healthzFailed: 0, stop: async () => undefined };
  let running = true;
  const agent = client.newAgent();
  const hostile = (async () => {
    while (running) {
      const t = performance.now();
      const r = await client.request(agent, 'POST', '/graphql', token, {
        query: HOSTILE,
        variables: { postId },
      });
      out.hostile.push({ status: r.status, bytes: Buffer.byteLength(r.body), ms: performance.now() - t });
      if (r.networkError) await sleep(100);
    }
  })();
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      out.healthz.push(performance.now() - t);
      if (!ok) out.healthzFailed++;
      await sleep(250);
    }
  })();
  out.stop = async () => {
    running = false;
    await Promise.all([hostile, prober]);
  };
  return out;
}

/** The bystanders' lines of the report, and whether `/healthz` held (p99 under the limit, every answer 200). */
export function reportBystanders(b: Bystanders, healthzLimitMs: number) {
  const h = [...b.healthz].sort((x, y) => x - y);
  const refused = b.hostile.filter((r) => r.status >= 400 && r.status < 500).length;
  const answered = b.hostile.filter((r) => r.status === 200);
  const failed = b.hostile.filter((r) => r.status >= 500 || r.status === 0).length;
  const maxBytes = b.hostile.reduce((m, r) => Math.max(m, r.bytes), 0); // a spread of 100,000 overflows the stack
  return {
    limitMs: healthzLimitMs,
    healthzPass: h.length > 0 && pct(h, 0.99) < healthzLimitMs && b.healthzFailed === 0,
    healthz: `${h.length} probes: p50 ${pct(h, 0.5).toFixed(1)} ms, p99 ${pct(h, 0.99).toFixed(1)} ms, max ${h[h.length - 1]?.toFixed(1)} ms, not 200: ${b.healthzFailed}`,
    hostile: `${b.hostile.length} requests of the 15-alias comments query: ${refused} refused (4xx), ${answered.length} answered (largest ${(maxBytes / 1024).toFixed(0)} KB), ${failed} 5xx/network; p50 ${pct(
      b.hostile.map((r) => r.ms).sort((x, y) => x - y),
      0.5,
    ).toFixed(1)} ms`,
    results: {
      healthzP50Ms: pct(h, 0.5),
      healthzP99Ms: pct(h, 0.99),
      healthzMaxMs: h[h.length - 1],
      healthzFailed: b.healthzFailed,
      hostileRequests: b.hostile.length,
      hostileRefused: refused,
      hostileAnswered: answered.length,
      hostileFailed: failed,
      hostileMaxBytes: maxBytes,
    },
  };
}
