import { randomUUID } from 'node:crypto';
import { permissionsFor, type RoleId } from '../../domain/permissions.ts';
import type { Actor, Caller } from '../commands/caller.ts';

/** The caller a request of that user with that role would give the commands (a fresh session). */
export function callerFor(
  user: { userId: string; organizationId: string | null },
  roleId: RoleId,
): Caller {
  const actor: Actor = {
    userId: user.userId,
    organizationId: user.organizationId,
    roleId,
    permissions: permissionsFor(roleId),
    sessionId: randomUUID(),
    organizationStatus: 2,
  };
  return { actor, requestId: randomUUID() };
}
