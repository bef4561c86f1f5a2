import type { MemberKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { links, notifyEach } from '../notifications/notify.service.ts';

/* What membership tells people (docs/notifications.md, "Events"). */

interface NewMember {
  id: number;
  firstName: string;
  lastName: string;
}

/**
 * New members, to the course's editors when the course asks for it (`notify_editors_of_members`, off by
 * default): one event per member, all in one statement, the editor who added them and the member
 * themselves left out. Once per member and list: removed and added again tells nobody again.
 */
export function tellOfNewMembers(
  tx: Executor,
  courseId: number,
  kind: MemberKind,
  members: readonly NewMember[],
  actorId: number,
): Promise<number> {
  return notifyEach(
    tx,
    members.map((member) => ({
      kind: 'member_added' as const,
      key: `member_added:${courseId}:${kind}:${member.id}`,
      courseId,
      link: links.members(courseId),
      facts: { member: { first_name: member.firstName, last_name: member.lastName }, role: kind },
      to: { editorsOfNewMember: courseId, member: member.id },
      actorId,
    })),
  );
}
