import { Role, permissionsFor } from '../../../domain/permissions.ts';
import type { AuthUser } from '../state/session.ts';

const user = (roleId: number, name: string, extra: Partial<AuthUser> = {}): AuthUser => {
  const roleName =
    { 1: 'Superadmin', 2: 'Shipper', 3: 'Carrier', 4: 'Driver' }[roleId] ?? 'Unknown';
  return {
    id: `user-${roleName.toLowerCase()}`,
    name,
    username: roleName.toLowerCase(),
    email: `${roleName.toLowerCase()}@example.com`,
    role: { id: roleId, name: roleName },
    roles: [roleName],
    organization:
      roleId === Role.Superadmin
        ? null
        : {
            id: `org-${roleId}`,
            name: `${roleName} Co.`,
            type: roleId === Role.Shipper ? 'Shipper' : 'Carrier',
            status: 2,
          },
    permissions: [...permissionsFor(roleId)],
    ...extra,
  };
};

/** Signed-in users of each role, with the permissions docs/domain.md gives the role. */
export const users = {
  shipper: user(Role.Shipper, 'Dana Brooks'),
  carrier: user(Role.Carrier, 'Carl Rivers'),
  driver: user(Role.Driver, 'Dan Driver'),
  admin: user(Role.Superadmin, ''),
};
