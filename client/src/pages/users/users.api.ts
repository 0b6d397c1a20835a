import { apiGet } from '../../api/http.ts';
import type { TableRow } from '../../api/table.ts';

/** Row action ids of the table protocol (docs/api.md). */
export const RowActionId = { View: 1, Edit: 2, Activate: 13, Block: 14 } as const;

export interface Named {
  id: string | number;
  name: string;
  type?: string;
}

/** A row of users/list/shippers and users/list/carriers: an organization with its first user. */
export interface OrganizationRow extends TableRow {
  id: string;
  name: string;
  type: string;
  email: string;
  phone: string;
  address: string;
  person: string;
  user: { id: string; name: string; email: string; username: string; phone: string; status: number } | null;
  mcNumber?: number | null;
  dotNumber?: number | null;
  eldProvider?: string | null;
  documents?: Record<string, string | null>;
  insuredAmount?: number | null;
  signatureFileId?: string | null;
  createdAt: string;
  /** The organization's own status (what its Activate and Block actions change). */
  status: number;
  statusName: string;
}

/** A row of the users table. */
export interface UserRow extends TableRow {
  id: string;
  name: string;
  email: string;
  username: string;
  phone: string;
  roleId: number;
  role: string;
  organizationId: string | null;
  organization: { id: string; name: string; type: string } | null;
  emailConfirmed: boolean;
  status: number;
  statusName: string;
  createdAt: string;
}

export const fetchFilterableRoles = () => apiGet<Named[]>('/users/roles/filterable');
export const fetchCreatableRoles = () => apiGet<Named[]>('/users/roles/creatable');
export const fetchOrganizations = () => apiGet<Named[]>('/users/organization');

/** A status filter fixed in the table's url (the lists of one status). */
export const withStatus = (url: string, status: number) => `${url}?filters=${encodeURIComponent(JSON.stringify([{ name: 'status', value: [status] }]))}`;

const dateFormat = new Map<string, Intl.DateTimeFormat>();
export function shortDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  let format = dateFormat.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' });
    dateFormat.set(language, format);
  }
  return format.format(new Date(iso));
}
