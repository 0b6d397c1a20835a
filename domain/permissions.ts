import { Role, roles, type RoleEntry, type RoleId } from './catalog/roles.ts';

export { Role, roles, isRoleId, type RoleEntry, type RoleId } from './catalog/roles.ts';

// Numeric permission codes, in the order and with the names of the specification's section 6.

// Users 101-114
export const SUPER_ADMIN = 101;
export const USER_CREATE = 102;
export const USER_DELETE = 103;
export const USER_UPDATE = 104;
export const USER_ACTIVATE = 105;
export const USER_BLOCK = 106;
export const USERS_SHIPPERS = 107;
export const USERS_CARRIERS = 108;
export const USERS_ORGANIZATIONS = 109;
export const USER_CREATABLE_ROLES = 110;
export const USER_ASSIGN_ORGANIZATION = 111;
export const USERS_IN_ORGANIZATION = 112;
export const USER_FILTERABLE_ROLES = 113;
export const DISPLAY_USERS_SIDEMENU = 114;
// Loads 201-209
export const LOAD_CREATE = 201;
export const LOAD_EDIT = 202;
export const LOADS_SHIPPER = 203;
export const LOADS_CARRIER = 204;
export const LOAD_DELETE = 205;
export const LOADS_PROPOSALS = 206;
export const LOAD_PROPOSAL_VIEW = 207;
export const LOAD_GET = 208;
export const LOAD_IMPORT = 209;
// Offer 301
export const OFFER_SUBMIT = 301;
// Proposals 401-407
export const PROPOSAL_LIST_CARRIER = 401;
export const PROPOSAL_SUBMIT = 402;
export const PROPOSAL_CANCEL = 403;
export const PROPOSAL_VIEW = 404;
export const PROPOSAL_CHANGE_STATUS = 405;
export const PROPOSAL_VIEW_ALL = 406;
export const PROPOSAL_NEW_NOTIFICATION = 407;
// Tours 501-513
export const TOUR_CREATE = 501;
export const TOUR_ASSIGN = 502;
export const TOURS_ALL = 503;
export const TOURS_ASSIGNED = 504;
export const TOUR_ASSIGNEE = 505;
export const TOUR_ADD_EVENT = 506;
export const TOUR_RATE = 507;
export const TOUR_GET_RATING_CRITERIA = 508;
export const TOUR_CHANGE_STATUS = 509;
export const TOUR_GET = 510;
export const TOUR_ASSIGNEES_LIST = 511;
export const TOUR_GET_EVENTS = 512;
export const TOUR_TRACK_STATUS = 513;
// Chat 602
export const CHAT_USE = 602;
// Account 701-708
export const ACCOUNT_GET_USER = 701;
export const ACCOUNT_GET_ORGANIZATION = 702;
export const ACCOUNT_GET_SHIPPER = 703;
export const ACCOUNT_GET_CARRIER = 704;
export const ACCOUNT_CHANGE_ORGANIZATION = 705;
export const ACCOUNT_CHANGE_CARRIER = 706;
export const ACCOUNT_CHANGE_SHIPPER = 707;
export const ACCOUNT_EDIT_USER_PROFILE = 708;

export type PermissionArea =
  | 'Users'
  | 'Loads'
  | 'Offer'
  | 'Proposals'
  | 'Tours'
  | 'Chat'
  | 'Account';
export type Permission = {
  readonly id: number;
  readonly name: string;
  readonly area: PermissionArea;
  readonly description: string;
};

const entry = (
  id: number,
  name: string,
  area: PermissionArea,
  description: string,
): Permission => ({ id, name, area, description });

/** Every permission with its constant's name and the specification's wording, in code order. */
export const permissions: readonly Permission[] = [
  entry(SUPER_ADMIN, 'SUPER_ADMIN', 'Users', 'super admin'),
  entry(USER_CREATE, 'USER_CREATE', 'Users', 'user create'),
  entry(USER_DELETE, 'USER_DELETE', 'Users', 'user delete'),
  entry(USER_UPDATE, 'USER_UPDATE', 'Users', 'user update'),
  entry(USER_ACTIVATE, 'USER_ACTIVATE', 'Users', 'user activate'),
  entry(USER_BLOCK, 'USER_BLOCK', 'Users', 'user block'),
  entry(USERS_SHIPPERS, 'USERS_SHIPPERS', 'Users', 'shippers list'),
  entry(USERS_CARRIERS, 'USERS_CARRIERS', 'Users', 'carriers list'),
  entry(USERS_ORGANIZATIONS, 'USERS_ORGANIZATIONS', 'Users', 'organizations list'),
  entry(USER_CREATABLE_ROLES, 'USER_CREATABLE_ROLES', 'Users', 'creatable roles'),
  entry(USER_ASSIGN_ORGANIZATION, 'USER_ASSIGN_ORGANIZATION', 'Users', 'assign organization'),
  entry(USERS_IN_ORGANIZATION, 'USERS_IN_ORGANIZATION', 'Users', 'list users in organization'),
  entry(USER_FILTERABLE_ROLES, 'USER_FILTERABLE_ROLES', 'Users', 'filterable roles'),
  entry(DISPLAY_USERS_SIDEMENU, 'DISPLAY_USERS_SIDEMENU', 'Users', 'show users side menu'),
  entry(LOAD_CREATE, 'LOAD_CREATE', 'Loads', 'create'),
  entry(LOAD_EDIT, 'LOAD_EDIT', 'Loads', 'edit'),
  entry(LOADS_SHIPPER, 'LOADS_SHIPPER', 'Loads', 'shippers view'),
  entry(LOADS_CARRIER, 'LOADS_CARRIER', 'Loads', 'carriers view'),
  entry(LOAD_DELETE, 'LOAD_DELETE', 'Loads', 'delete'),
  entry(LOADS_PROPOSALS, 'LOADS_PROPOSALS', 'Loads', 'proposals'),
  entry(LOAD_PROPOSAL_VIEW, 'LOAD_PROPOSAL_VIEW', 'Loads', 'proposal view'),
  entry(LOAD_GET, 'LOAD_GET', 'Loads', 'get'),
  entry(LOAD_IMPORT, 'LOAD_IMPORT', 'Loads', 'import'),
  entry(OFFER_SUBMIT, 'OFFER_SUBMIT', 'Offer', 'submit'),
  entry(PROPOSAL_LIST_CARRIER, 'PROPOSAL_LIST_CARRIER', 'Proposals', 'list for carrier'),
  entry(PROPOSAL_SUBMIT, 'PROPOSAL_SUBMIT', 'Proposals', 'submit'),
  entry(PROPOSAL_CANCEL, 'PROPOSAL_CANCEL', 'Proposals', 'cancel'),
  entry(PROPOSAL_VIEW, 'PROPOSAL_VIEW', 'Proposals', 'view'),
  entry(PROPOSAL_CHANGE_STATUS, 'PROPOSAL_CHANGE_STATUS', 'Proposals', 'change status'),
  entry(PROPOSAL_VIEW_ALL, 'PROPOSAL_VIEW_ALL', 'Proposals', 'view all'),
  entry(
    PROPOSAL_NEW_NOTIFICATION,
    'PROPOSAL_NEW_NOTIFICATION',
    'Proposals',
    'receive new-notification',
  ),
  entry(TOUR_CREATE, 'TOUR_CREATE', 'Tours', 'create'),
  entry(TOUR_ASSIGN, 'TOUR_ASSIGN', 'Tours', 'assign'),
  entry(TOURS_ALL, 'TOURS_ALL', 'Tours', 'all'),
  entry(TOURS_ASSIGNED, 'TOURS_ASSIGNED', 'Tours', 'assigned'),
  entry(TOUR_ASSIGNEE, 'TOUR_ASSIGNEE', 'Tours', 'assignee'),
  entry(TOUR_ADD_EVENT, 'TOUR_ADD_EVENT', 'Tours', 'add event'),
  entry(TOUR_RATE, 'TOUR_RATE', 'Tours', 'rate'),
  entry(TOUR_GET_RATING_CRITERIA, 'TOUR_GET_RATING_CRITERIA', 'Tours', 'get rating criteria'),
  entry(TOUR_CHANGE_STATUS, 'TOUR_CHANGE_STATUS', 'Tours', 'change status'),
  entry(TOUR_GET, 'TOUR_GET', 'Tours', 'get'),
  entry(TOUR_ASSIGNEES_LIST, 'TOUR_ASSIGNEES_LIST', 'Tours', 'assignees list'),
  entry(TOUR_GET_EVENTS, 'TOUR_GET_EVENTS', 'Tours', 'get events'),
  entry(TOUR_TRACK_STATUS, 'TOUR_TRACK_STATUS', 'Tours', 'track status'),
  entry(CHAT_USE, 'CHAT_USE', 'Chat', 'use'),
  entry(ACCOUNT_GET_USER, 'ACCOUNT_GET_USER', 'Account', 'get user'),
  entry(ACCOUNT_GET_ORGANIZATION, 'ACCOUNT_GET_ORGANIZATION', 'Account', 'get organization'),
  entry(ACCOUNT_GET_SHIPPER, 'ACCOUNT_GET_SHIPPER', 'Account', 'get shipper'),
  entry(ACCOUNT_GET_CARRIER, 'ACCOUNT_GET_CARRIER', 'Account', 'get carrier'),
  entry(
    ACCOUNT_CHANGE_ORGANIZATION,
    'ACCOUNT_CHANGE_ORGANIZATION',
    'Account',
    'change organization',
  ),
  entry(ACCOUNT_CHANGE_CARRIER, 'ACCOUNT_CHANGE_CARRIER', 'Account', 'change carrier'),
  entry(ACCOUNT_CHANGE_SHIPPER, 'ACCOUNT_CHANGE_SHIPPER', 'Account', 'change shipper'),
  entry(ACCOUNT_EDIT_USER_PROFILE, 'ACCOUNT_EDIT_USER_PROFILE', 'Account', 'edit user profile'),
];

/** Every code, ascending. */
export const allPermissionCodes: readonly number[] = permissions.map((permission) => permission.id);

/** Code to constant name: `permissionNames[201] === 'LOAD_CREATE'`. */
export const permissionNames: Readonly<Record<number, string>> = Object.fromEntries(
  permissions.map((permission) => [permission.id, permission.name]),
);

export const isPermissionCode = (code: unknown): code is number =>
  typeof code === 'number' && code in permissionNames;

/** docs/domain.md "Roles and permissions", code for code. */
export const rolePermissions: Readonly<Record<RoleId, readonly number[]>> = {
  [Role.Superadmin]: allPermissionCodes,
  [Role.Shipper]: [
    USER_CREATE,
    USER_DELETE,
    USER_UPDATE,
    USER_CREATABLE_ROLES,
    USERS_IN_ORGANIZATION,
    DISPLAY_USERS_SIDEMENU,
    LOAD_CREATE,
    LOAD_EDIT,
    LOADS_SHIPPER,
    LOAD_DELETE,
    LOADS_PROPOSALS,
    LOAD_PROPOSAL_VIEW,
    LOAD_GET,
    LOAD_IMPORT,
    PROPOSAL_VIEW,
    PROPOSAL_CHANGE_STATUS,
    PROPOSAL_NEW_NOTIFICATION,
    TOURS_ALL,
    TOUR_RATE,
    TOUR_GET_RATING_CRITERIA,
    TOUR_CHANGE_STATUS,
    TOUR_GET,
    TOUR_GET_EVENTS,
    TOUR_TRACK_STATUS,
    CHAT_USE,
    ACCOUNT_GET_USER,
    ACCOUNT_GET_ORGANIZATION,
    ACCOUNT_GET_SHIPPER,
    ACCOUNT_CHANGE_ORGANIZATION,
    ACCOUNT_CHANGE_SHIPPER,
    ACCOUNT_EDIT_USER_PROFILE,
  ],
  [Role.Carrier]: [
    USER_CREATE,
    USER_DELETE,
    USER_UPDATE,
    USER_CREATABLE_ROLES,
    USER_ASSIGN_ORGANIZATION,
    USERS_IN_ORGANIZATION,
    DISPLAY_USERS_SIDEMENU,
    LOADS_CARRIER,
    LOAD_PROPOSAL_VIEW,
    LOAD_GET,
    OFFER_SUBMIT,
    PROPOSAL_LIST_CARRIER,
    PROPOSAL_SUBMIT,
    PROPOSAL_CANCEL,
    PROPOSAL_VIEW,
    PROPOSAL_CHANGE_STATUS,
    PROPOSAL_NEW_NOTIFICATION,
    TOUR_CREATE,
    TOUR_ASSIGN,
    TOURS_ALL,
    TOUR_ADD_EVENT,
    TOUR_RATE,
    TOUR_GET_RATING_CRITERIA,
    TOUR_CHANGE_STATUS,
    TOUR_GET,
    TOUR_ASSIGNEES_LIST,
    TOUR_GET_EVENTS,
    TOUR_TRACK_STATUS,
    CHAT_USE,
    ACCOUNT_GET_USER,
    ACCOUNT_GET_ORGANIZATION,
    ACCOUNT_GET_CARRIER,
    ACCOUNT_CHANGE_ORGANIZATION,
    ACCOUNT_CHANGE_CARRIER,
    ACCOUNT_EDIT_USER_PROFILE,
  ],
  [Role.Driver]: [
    TOURS_ASSIGNED,
    TOUR_ASSIGNEE,
    TOUR_ADD_EVENT,
    TOUR_CHANGE_STATUS,
    TOUR_GET,
    TOUR_GET_EVENTS,
    TOUR_TRACK_STATUS,
    CHAT_USE,
    ACCOUNT_GET_USER,
    ACCOUNT_EDIT_USER_PROFILE,
  ],
};

/** The codes a role holds; none for an unknown role. */
export const permissionsFor = (roleId: number): readonly number[] =>
  rolePermissions[roleId as RoleId] ?? [];

/**
 * Whether the user holds at least one of the codes: a route or endpoint naming several codes is
 * open to a holder of any one (docs/domain.md). Naming no code grants nothing.
 */
export const hasAny = (
  userPermissions: Iterable<number> | null | undefined,
  ...codes: number[]
): boolean => {
  if (!userPermissions) return false;
  const held = userPermissions instanceof Set ? userPermissions : new Set(userPermissions);
  return codes.some((code) => held.has(code));
};

/** Whether the user holds every one of the codes (true when none is named). */
export const hasAll = (
  userPermissions: Iterable<number> | null | undefined,
  ...codes: number[]
): boolean => {
  const held = new Set(userPermissions ?? []);
  return codes.every((code) => held.has(code));
};

const rolesById = (...ids: RoleId[]): readonly RoleEntry[] =>
  roles.filter((role) => ids.includes(role.id));

const creatable: Readonly<Record<RoleId, readonly RoleEntry[]>> = {
  [Role.Superadmin]: roles,
  [Role.Shipper]: rolesById(Role.Shipper),
  [Role.Carrier]: rolesById(Role.Carrier, Role.Driver),
  [Role.Driver]: [],
};

/**
 * The roles a user of that role may give to a user it creates (docs/domain.md): a Superadmin any role; a
 * Shipper Shippers of its organization; a Carrier Carriers (dispatchers) and Drivers of its own.
 */
export const creatableRoles = (roleId: number): readonly RoleEntry[] =>
  creatable[roleId as RoleId] ?? [];

export const canCreateRole = (creatorRoleId: number, roleId: number): boolean =>
  creatableRoles(creatorRoleId).some((role) => role.id === roleId);

/**
 * The roles offered by the users table's `role` filter: a Superadmin sees every role; a Shipper or a
 * Carrier only the roles its organization's users can have (the ones it can create); a Driver has
 * no users list.
 */
export const filterableRoles = (roleId: number): readonly RoleEntry[] => creatableRoles(roleId);
