import { Field, Int, ObjectType } from 'type-graphql';
import type { EventEnvelope } from '@intranet/schema/events';

@ObjectType({
  simpleResolvers: true,
  description: 'プロフィールの変更（保存・いいね・コメント）。開いている画面はこれを受けて読み直す',
})
export class ProfileChange {
  @Field({
    description:
      'profile.saved / profile.like_changed / profile.comment.added / profile.comment.edited / profile.comment.deleted',
  })
  type!: string;
  @Field(() => Int) profileId!: number;
  @Field(() => Int, { description: 'プロフィールの持ち主' }) employeeId!: number;
  @Field(() => Int, { nullable: true, description: '変更した社員' }) actorId!: number | null;
  @Field(() => Int, { nullable: true, description: 'コメントの変更なら、そのコメント' }) commentId!: number | null;
  @Field() occurredAt!: string;
}

/**
 * What every signed-in viewer may hear of a profile's change: which profile, what kind, by whom.
 * Every profile is readable by every employee, and nothing personal (address, phone) travels here:
 * a page that hears of a change reads the profile again through the service, which holds the rule.
 */
export function profileChangeOf(e: EventEnvelope): ProfileChange {
  const payload = e.payload as { profile: { id: number; employeeId: number }; commentId?: number };
  return {
    type: e.type,
    profileId: payload.profile.id,
    employeeId: payload.profile.employeeId,
    actorId: e.actorId,
    commentId: payload.commentId ?? null,
    occurredAt: e.occurredAt,
  };
}
