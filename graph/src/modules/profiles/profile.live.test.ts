import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let staff: string;
let colleague: string;
const profileOf: Record<string, number> = {};
beforeAll(async () => {
  p = await startTestPlatform();
  staff = await loginToken(p.url, 'staff');
  colleague = await loginToken(p.url, 'devadmin');
  for (const [who, token] of [
    ['staff', staff],
    ['colleague', colleague],
  ] as const) {
    const r = await gql(p.url, `{ employeeProfile { id } }`, {}, { token });
    profileOf[who] =
      r.body.data.employeeProfile?.id ??
      (await gql(p.url, `mutation { createProfile(input: {}) { id } }`, {}, { token })).body.data.createProfile.id;
  }
});
afterAll(async () => p?.close());

interface Change {
  type: string;
  profileId: number;
  employeeId: number;
  actorId: number | null;
  commentId: number | null;
}

function watch(token: string, profileId: number) {
  const client = createClient({
    url: p.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  const changes: Change[] = [];
  client.subscribe<{ profileChanged: Change }>(
    {
      query: `subscription($id: Int) { profileChanged(profileId: $id) { type profileId employeeId actorId commentId } }`,
      variables: { id: profileId },
    },
    { next: (m) => changes.push(m.data!.profileChanged), error: () => undefined, complete: () => undefined },
  );
  return {
    changes,
    async until(pred: (c: Change) => boolean, tries = 100) {
      for (let i = 0; i < tries && !changes.some(pred); i++) await new Promise((r) => setTimeout(r, 50));
      if (!changes.some(pred)) throw new Error(`not received; got ${JSON.stringify(changes)}`);
    },
    close: () => client.dispose(),
  };
}

/** A like and an unlike of `profileId` by `token`: the last thing its watchers hear of it until the next. */
const marker = async (token: string, profileId: number) => {
  for (const on of [true, false])
    await gql(
      p.url,
      `mutation($id: Int!, $on: Boolean!) { likeProfile(id: $id, liked: $on) { id } }`,
      { id: profileId, on },
      { token },
    );
};
/** Live once a marker comes back (the first may be sent before the subscription registers). */
async function ready(w: ReturnType<typeof watch>, token: string, profileId: number) {
  for (let i = 0; i < 50; i++) {
    await marker(token, profileId);
    if (
      await w
        .until((c) => c.type === 'profile.like_changed', 10)
        .then(
          () => true,
          () => false,
        )
    ) {
      w.changes.length = 0;
      return;
    }
  }
  throw new Error('subscription never registered');
}

describe('profiles, live', () => {
  it('a like and a comment reach those watching that profile, with who did it; watchers of another profile hear nothing of it', async () => {
    const onStaff = watch(colleague, profileOf.staff!);
    const onColleague = watch(staff, profileOf.colleague!);
    await ready(onStaff, colleague, profileOf.staff!);
    await ready(onColleague, staff, profileOf.colleague!);

    await gql(
      p.url,
      `mutation($id: Int!) { likeProfile(id: $id, liked: true) { id } }`,
      { id: profileOf.staff },
      { token: colleague },
    );
    const c = await gql(
      p.url,
      `mutation($i: ProfileCommentInput!) { addProfileComment(input: $i) { id } }`,
      { i: { profileId: profileOf.staff, content: 'ライブ' } },
      { token: colleague },
    );
    const commentId = c.body.data.addProfileComment.id;
    await onStaff.until((x) => x.type === 'profile.comment.added' && x.commentId === commentId);
    const [staffEmployee] = await p.db.orm.em
      .fork()
      .getConnection()
      .execute(`select employee_id from profile where id = ?`, [profileOf.staff]);
    // A probe's unlike may still arrive first (it is of this profile too); the like and the comment come last, in order.
    expect(onStaff.changes.slice(-2).map((x) => x.type)).toEqual(['profile.like_changed', 'profile.comment.added']);
    expect(onStaff.changes.every((x) => x.profileId === profileOf.staff)).toBe(true);
    expect(onStaff.changes.at(-2)).toMatchObject({ profileId: profileOf.staff, employeeId: staffEmployee.employee_id });

    // Everything sent before the marker on the other profile has arrived: none of it was about this one.
    await marker(staff, profileOf.colleague!);
    await onColleague.until((x) => x.type === 'profile.like_changed');
    expect(onColleague.changes.every((x) => x.profileId === profileOf.colleague)).toBe(true);
    await Promise.all([onStaff.close(), onColleague.close()]);
  });
});
