import { apiGet } from '../../api/http.ts';
import type {
  OrganizationChoice,
  OrganizationRow,
  RoleChoice,
  UserRow,
} from '../../../../domain/contracts/users.contract.ts';

export type {
  Changed,
  OrganizationStatus,
  UserStatusChanged,
} from '../../../../domain/contracts/users.contract.ts';

/** Row action ids of the table protocol (docs/api.md); 17 Delete is a driver's, in the users tables. */
export const RowActionId = { View: 1, Edit: 2, Activate: 13, Block: 14, Delete: 17 } as const;

export type { OrganizationChoice, OrganizationRow, RoleChoice, UserRow };

export const fetchFilterableRoles = () => apiGet<RoleChoice[]>('/users/roles/filterable');
export const fetchCreatableRoles = () => apiGet<RoleChoice[]>('/users/roles/creatable');
export const fetchOrganizations = () => apiGet<OrganizationChoice[]>('/users/organization');

/** Filters fixed in the table's url (the lists of one status, of one role). */
export const withFilters = (url: string, filters: Record<string, number>) =>
  `${url}?filters=${encodeURIComponent(JSON.stringify(Object.entries(filters).map(([name, value]) => ({ name, value: [value] }))))}`;

/** A status filter fixed in the table's url (the lists of one status). */
export const withStatus = (url: string, status: number) => withFilters(url, { status });
