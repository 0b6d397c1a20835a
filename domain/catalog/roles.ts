import type { Entry } from './lookup.ts';

export const Role = { Superadmin: 1, Shipper: 2, Carrier: 3, Driver: 4 } as const;
export type RoleId = (typeof Role)[keyof typeof Role];
export type RoleEntry = Entry & { readonly id: RoleId };

export const roles: readonly RoleEntry[] = [
  { id: 1, name: 'Superadmin' },
  { id: 2, name: 'Shipper' },
  { id: 3, name: 'Carrier' },
  { id: 4, name: 'Driver' },
];

export const isRoleId = (id: unknown): id is RoleId => roles.some((role) => role.id === id);

/** Organization types; a Superadmin belongs to none. */
export const organizationTypes = ['Shipper', 'Carrier'] as const;
export type OrganizationType = (typeof organizationTypes)[number];
