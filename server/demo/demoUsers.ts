/** The demo accounts as callers of the command handlers, and whether the marketplace is still empty. */
import { randomUUID } from 'node:crypto';
import { permissionsFor } from '../../domain/permissions.ts';
import { loadCount } from '../../projections/marketplace/marketplace.queries.ts';
import type { Caller } from '../commands/marketplace.ts';
import type { Actor } from '../http/auth.ts';
import type { Platform } from '../platform.ts';
import { demoEmail, type DemoUserKey } from './demoData.ts';

export type DemoUser = { caller: Caller; name: string; organizationId: string };

/** Whether the marketplace is empty: no load was ever posted. */
export async function marketplaceIsEmpty(platform: Platform): Promise<boolean> {
  await platform.runner.waitFor(['marketplace'], await platform.store.head(), 10_000);
  return (await loadCount(platform.database.db)) === 0;
}

/** The demo user behind a key, as a caller of the command handlers; null when the account is missing. */
export async function demoUser(platform: Platform, key: DemoUserKey): Promise<DemoUser | null> {
  const userId = await platform.identity.userIdByEmail(demoEmail(key));
  const user = userId ? await platform.identity.loadUser(userId) : null;
  if (!user?.organizationId) return null;
  const actor: Actor = {
    userId: user.userId,
    organizationId: user.organizationId,
    roleId: user.roleId,
    permissions: permissionsFor(user.roleId),
    sessionId: 'demo',
  };
  return {
    caller: { actor, requestId: `demo-${randomUUID()}` },
    name: user.name,
    organizationId: user.organizationId,
  };
}
