import t from 'tap';
import * as P from './permissions.ts';
import {
  allPermissionCodes,
  canCreateRole,
  creatableRoles,
  filterableRoles,
  hasAll,
  hasAny,
  isPermissionCode,
  permissionNames,
  permissions,
  permissionsFor,
  rolePermissions,
  Role,
} from './permissions.ts';

// Section 6 of the specification, name for name, in its order.
const expectedCodes: [string, number][] = [
  ['SUPER_ADMIN', 101],
  ['USER_CREATE', 102],
  ['USER_DELETE', 103],
  ['USER_UPDATE', 104],
  ['USER_ACTIVATE', 105],
  ['USER_BLOCK', 106],
  ['USERS_SHIPPERS', 107],
  ['USERS_CARRIERS', 108],
  ['USERS_ORGANIZATIONS', 109],
  ['USER_CREATABLE_ROLES', 110],
  ['USER_ASSIGN_ORGANIZATION', 111],
  ['USERS_IN_ORGANIZATION', 112],
  ['USER_FILTERABLE_ROLES', 113],
  ['DISPLAY_USERS_SIDEMENU', 114],
  ['LOAD_CREATE', 201],
  ['LOAD_EDIT', 202],
  ['LOADS_SHIPPER', 203],
  ['LOADS_CARRIER', 204],
  ['LOAD_DELETE', 205],
  ['LOADS_PROPOSALS', 206],
  ['LOAD_PROPOSAL_VIEW', 207],
  ['LOAD_GET', 208],
  ['LOAD_IMPORT', 209],
  ['OFFER_SUBMIT', 301],
  ['PROPOSAL_LIST_CARRIER', 401],
  ['PROPOSAL_SUBMIT', 402],
  ['PROPOSAL_CANCEL', 403],
  ['PROPOSAL_VIEW', 404],
  ['PROPOSAL_CHANGE_STATUS', 405],
  ['PROPOSAL_VIEW_ALL', 406],
  ['PROPOSAL_NEW_NOTIFICATION', 407],
  ['TOUR_CREATE', 501],
  ['TOUR_ASSIGN', 502],
  ['TOURS_ALL', 503],
  ['TOURS_ASSIGNED', 504],
  ['TOUR_ASSIGNEE', 505],
  ['TOUR_ADD_EVENT', 506],
  ['TOUR_RATE', 507],
  ['TOUR_GET_RATING_CRITERIA', 508],
  ['TOUR_CHANGE_STATUS', 509],
  ['TOUR_GET', 510],
  ['TOUR_ASSIGNEES_LIST', 511],
  ['TOUR_GET_EVENTS', 512],
  ['TOUR_TRACK_STATUS', 513],
  ['CHAT_USE', 602],
  ['ACCOUNT_GET_USER', 701],
  ['ACCOUNT_GET_ORGANIZATION', 702],
  ['ACCOUNT_GET_SHIPPER', 703],
  ['ACCOUNT_GET_CARRIER', 704],
  ['ACCOUNT_CHANGE_ORGANIZATION', 705],
  ['ACCOUNT_CHANGE_CARRIER', 706],
  ['ACCOUNT_CHANGE_SHIPPER', 707],
  ['ACCOUNT_EDIT_USER_PROFILE', 708],
];

// docs/domain.md "Roles and permissions", copied literally.
const superadmin = [
  101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 201, 202, 203, 204, 205,
  206, 207, 208, 209, 301, 401, 402, 403, 404, 405, 406, 407, 501, 502, 503, 504, 505, 506, 507,
  508, 509, 510, 511, 512, 513, 602, 701, 702, 703, 704, 705, 706, 707, 708,
];
const shipper = [
  102, 103, 104, 110, 112, 114, 201, 202, 203, 205, 206, 207, 208, 209, 404, 405, 407, 503, 507,
  508, 509, 510, 512, 513, 602, 701, 702, 703, 705, 707, 708,
];
const carrier = [
  102, 103, 104, 110, 111, 112, 114, 204, 207, 208, 301, 401, 402, 403, 404, 405, 407, 501, 502,
  503, 506, 507, 508, 509, 510, 511, 512, 513, 602, 701, 702, 704, 705, 706, 708,
];
const driver = [504, 505, 506, 509, 510, 512, 513, 602, 701, 708];

const sorted = (codes: readonly number[]) => [...codes].sort((a, b) => a - b);

t.test('every code of the specification is a named constant, in order', async (t) => {
  const exported = P as unknown as Record<string, unknown>;
  for (const [name, code] of expectedCodes) {
    t.equal(exported[name], code, name);
    t.equal(permissionNames[code], name, `permissionNames[${code}]`);
  }
  t.same(
    permissions.map((permission) => [permission.name, permission.id]),
    expectedCodes,
  );
  t.same(
    [...allPermissionCodes],
    expectedCodes.map(([, code]) => code),
  );
  t.equal(new Set(allPermissionCodes).size, 53);
  t.same(
    [...new Set(permissions.map((permission) => permission.area))],
    ['Users', 'Loads', 'Offer', 'Proposals', 'Tours', 'Chat', 'Account'],
  );
  t.equal(isPermissionCode(602), true);
  t.equal(isPermissionCode(601), false);
  t.equal(isPermissionCode('602'), false);
});

t.test('each role holds exactly the codes of docs/domain.md', async (t) => {
  t.same(sorted(permissionsFor(Role.Superadmin)), superadmin);
  t.same(sorted(permissionsFor(Role.Shipper)), shipper);
  t.same(sorted(permissionsFor(Role.Carrier)), carrier);
  t.same(sorted(permissionsFor(Role.Driver)), driver);
  t.same(
    sorted(rolePermissions[Role.Superadmin]),
    sorted(allPermissionCodes),
    'Superadmin has every code',
  );
  t.same(permissionsFor(99), []);
  for (const roleId of [Role.Shipper, Role.Carrier, Role.Driver]) {
    const codes = permissionsFor(roleId);
    t.equal(new Set(codes).size, codes.length, `no duplicate in role ${roleId}`);
  }
});

t.test('Superadmin-only codes belong to no other role', async (t) => {
  for (const code of [101, 105, 106, 107, 108, 109, 113, 406]) {
    for (const roleId of [Role.Shipper, Role.Carrier, Role.Driver]) {
      t.notOk(
        permissionsFor(roleId).includes(code),
        `${permissionNames[code]} not held by role ${roleId}`,
      );
    }
  }
});

t.test(
  'a driver holds only 701 and 708 of the account codes, and none of loads or proposals',
  async (t) => {
    const codes = permissionsFor(Role.Driver);
    t.same(
      codes.filter((code) => code >= 700),
      [P.ACCOUNT_GET_USER, P.ACCOUNT_EDIT_USER_PROFILE],
    );
    for (const code of [702, 703, 704, 705, 706, 707])
      t.notOk(codes.includes(code), `driver lacks ${code}`);
    t.notOk(
      codes.some((code) => code < 500),
      'no user, load, offer or proposal code',
    );
    t.ok(hasAny(codes, P.TOUR_ASSIGNEE), 'the /driver route is open to it');
    t.notOk(hasAny(codes, P.TOURS_ALL));
  },
);

t.test('shipper and carrier differ where their sides differ', async (t) => {
  const shipperCodes = permissionsFor(Role.Shipper);
  const carrierCodes = permissionsFor(Role.Carrier);
  t.ok(
    hasAll(
      shipperCodes,
      P.LOAD_CREATE,
      P.LOADS_SHIPPER,
      P.LOADS_PROPOSALS,
      P.ACCOUNT_GET_SHIPPER,
      P.ACCOUNT_CHANGE_SHIPPER,
    ),
  );
  t.notOk(
    hasAny(
      shipperCodes,
      P.LOADS_CARRIER,
      P.OFFER_SUBMIT,
      P.PROPOSAL_SUBMIT,
      P.ACCOUNT_GET_CARRIER,
      P.TOUR_ASSIGN,
    ),
  );
  t.ok(
    hasAll(
      carrierCodes,
      P.LOADS_CARRIER,
      P.OFFER_SUBMIT,
      P.PROPOSAL_SUBMIT,
      P.TOUR_ASSIGN,
      P.ACCOUNT_CHANGE_CARRIER,
    ),
  );
  t.notOk(
    hasAny(carrierCodes, P.LOAD_CREATE, P.LOADS_SHIPPER, P.LOADS_PROPOSALS, P.ACCOUNT_GET_SHIPPER),
  );
});

t.test('hasAny and hasAll', async (t) => {
  t.equal(hasAny([201, 203], 204, 203), true);
  t.equal(hasAny(new Set([201]), 201), true);
  t.equal(hasAny([201], 202, 203), false);
  t.equal(hasAny([201]), false, 'naming no code grants nothing');
  t.equal(hasAny(undefined, 201), false);
  t.equal(hasAny(null, 201), false);
  t.equal(hasAll([201, 203], 201, 203), true);
  t.equal(hasAll([201], 201, 203), false);
  t.equal(hasAll([201]), true);
  // The /offer/load route: any of OFFER_SUBMIT, PROPOSAL_SUBMIT, LOAD_PROPOSAL_VIEW.
  for (const roleId of [Role.Superadmin, Role.Shipper, Role.Carrier]) {
    t.ok(
      hasAny(permissionsFor(roleId), P.OFFER_SUBMIT, P.PROPOSAL_SUBMIT, P.LOAD_PROPOSAL_VIEW),
      `role ${roleId} opens /offer/load`,
    );
  }
  t.notOk(
    hasAny(permissionsFor(Role.Driver), P.OFFER_SUBMIT, P.PROPOSAL_SUBMIT, P.LOAD_PROPOSAL_VIEW),
  );
});

t.test('creatable and filterable roles', async (t) => {
  const ids = (list: readonly { id: number }[]) => list.map((role) => role.id);
  t.same(ids(creatableRoles(Role.Superadmin)), [1, 2, 3, 4]);
  t.same(ids(creatableRoles(Role.Shipper)), [2]);
  t.same(ids(creatableRoles(Role.Carrier)), [3, 4]);
  t.same(ids(creatableRoles(Role.Driver)), []);
  t.same(ids(creatableRoles(42)), []);
  t.same(creatableRoles(Role.Carrier), [
    { id: 3, name: 'Carrier' },
    { id: 4, name: 'Driver' },
  ]);
  t.equal(canCreateRole(Role.Carrier, Role.Driver), true);
  t.equal(canCreateRole(Role.Shipper, Role.Driver), false);
  t.equal(canCreateRole(Role.Shipper, Role.Superadmin), false);
  t.equal(canCreateRole(Role.Superadmin, Role.Superadmin), true);
  t.same(ids(filterableRoles(Role.Superadmin)), [1, 2, 3, 4]);
  t.same(ids(filterableRoles(Role.Shipper)), [2]);
  t.same(ids(filterableRoles(Role.Carrier)), [3, 4]);
  t.same(ids(filterableRoles(Role.Driver)), []);
  // Only roles holding 110 (creatable roles) can create anyone.
  for (const roleId of [Role.Superadmin, Role.Shipper, Role.Carrier, Role.Driver]) {
    t.equal(
      creatableRoles(roleId).length > 0,
      permissionsFor(roleId).includes(P.USER_CREATABLE_ROLES),
      `role ${roleId}`,
    );
  }
});
