/**
 * Who may call each route, declared by hand and checked by server/routes/authorization.spec.ts
 * against the app's own route table (the guard's codes, `config.public`) and against real requests.
 * A new route needs its row here, or that test fails naming it.
 */
import {
  ACCOUNT_CHANGE_CARRIER, ACCOUNT_CHANGE_ORGANIZATION, ACCOUNT_CHANGE_SHIPPER, ACCOUNT_EDIT_USER_PROFILE, ACCOUNT_GET_CARRIER,
  ACCOUNT_GET_ORGANIZATION, ACCOUNT_GET_SHIPPER, ACCOUNT_GET_USER, DISPLAY_USERS_SIDEMENU, SUPER_ADMIN, USER_ACTIVATE,
  USER_ASSIGN_ORGANIZATION, USER_BLOCK, USER_CREATABLE_ROLES, USER_CREATE, USER_DELETE, USER_FILTERABLE_ROLES, USER_UPDATE,
  USERS_CARRIERS, USERS_SHIPPERS, LOADS_CARRIER,
} from '../../domain/permissions.ts';
import type { RouteKey } from './routeInventory.ts';

/** What a tenant-scoped id names: another organization's one must answer 404, like an unknown one. */
export type TenantKind = 'user' | 'organization' | 'file' | 'load' | 'proposal' | 'tour';

export type Tenant = {
  /** A path parameter (`'id'`) or a field of the JSON body (`'body.id'`, `'body.organizationId'`). */
  param: string;
  kind: TenantKind;
};

/** Roles that get an answer other than the usual one, and why (DOMAIN.md or API.md is the reason). */
export type ByDesign = { roles: readonly RoleId[]; why: string };

export type RouteAccess =
  | { access: 'public' }
  | {
    /** Any one of the codes; `[]` is any signed-in user. */
    access: readonly number[];
    /** The ids the request names that belong to an organization; several when it names more than one. */
    tenant?: Tenant | readonly Tenant[];
    /** Roles the guard lets through that the command still refuses with 403, whatever the ids. */
    forbiddenFor?: ByDesign;
    /** Roles the guard lets through for which even their own organization's id answers 404: the route serves the other side of the shipment. */
    ownIdNotFoundFor?: ByDesign;
    /**
     * An open load of any Active shipper is on the marketplace (DOMAIN.md "Marketplace visibility"): every
     * carrier may use this route with it, across organizations. The tenant fixture for a carrier is a
     * load it won, which is closed; the spec tries the open, foreign load separately.
     */
    openOnMarketplace?: true;
  };

const PUBLIC = { access: 'public' } as const;
const SIGNED_IN = { access: [] } as const;

const LOAD_ID = { param: 'id', kind: 'load' } as const;
const TOUR_ID = { param: 'id', kind: 'tour' } as const;
/** A load, proposal or tour needs an organization: the Superadmin has none and acts from a shipper's or carrier's account. */
const NO_ORGANIZATION: ByDesign = { roles: [Role.Superadmin], why: 'a Superadmin belongs to no organization, and loads and offers are made by one' };

export const accessTable: Readonly<Record<RouteKey, RouteAccess>> = {
  // platform
  'GET /api/health': PUBLIC,
  'GET /api/catalog': PUBLIC,

  // auth
  'POST /api/login': PUBLIC,
  'POST /api/refresh-token': PUBLIC,
  'POST /api/logout': PUBLIC,
  'GET /api/profile': SIGNED_IN,
  // A public profile (name, organization, ratings): readable across organizations by design.
  'GET /api/profile/:id': SIGNED_IN,

  // registration
  'POST /api/register/carrier': PUBLIC,
  'POST /api/register/shipper': PUBLIC,
  'POST /api/confirm-signup': PUBLIC,
  'POST /api/users/forgot-password': PUBLIC,
  'POST /api/users/reset-password': PUBLIC,
  'GET /api/admin/outbox': { access: [SUPER_ADMIN] },

  // users
  'GET /api/users/activate/:id': { access: [USER_ACTIVATE], tenant: { param: 'id', kind: 'user' } },
  'GET /api/users/block/:id': { access: [USER_BLOCK], tenant: { param: 'id', kind: 'user' } },
  'GET /api/users': { access: [DISPLAY_USERS_SIDEMENU] },
  'GET /api/users/list/shippers': { access: [USERS_SHIPPERS] },
  'GET /api/users/list/carriers': { access: [USERS_CARRIERS] },
  'POST /api/users': { access: [USER_CREATE], tenant: { param: 'body.organizationId', kind: 'organization' } },
  'PUT /api/users/:id': { access: [USER_UPDATE], tenant: { param: 'id', kind: 'user' } },
  'DELETE /api/users/deleteDriver': { access: [USER_DELETE], tenant: { param: 'body.id', kind: 'user' } },
  'POST /api/users/organization': { access: [SUPER_ADMIN] },
  'GET /api/users/organization': { access: [USER_ASSIGN_ORGANIZATION] },
  'GET /api/users/roles/creatable': { access: [USER_CREATABLE_ROLES] },
  'GET /api/users/roles/filterable': { access: [USER_FILTERABLE_ROLES] },

  // account (always the caller's own user and organization)
  'GET /api/account': { access: [ACCOUNT_GET_USER, ACCOUNT_GET_ORGANIZATION, ACCOUNT_GET_SHIPPER, ACCOUNT_GET_CARRIER] },
  'PUT /api/users': { access: [ACCOUNT_EDIT_USER_PROFILE] },
  'PUT /api/users/organization': { access: [ACCOUNT_CHANGE_ORGANIZATION] },
  'POST /api/users/carrier': { access: [ACCOUNT_CHANGE_CARRIER] },
  'POST /api/users/shipper': { access: [ACCOUNT_CHANGE_SHIPPER] },
  'GET /api/files/:id': { ...SIGNED_IN, tenant: { param: 'id', kind: 'file' } },

  // saved searches (lane alerts): always the caller's organization; another's id is 404 (searches.routes.spec.ts)
  'GET /api/searches': { access: [LOADS_CARRIER] },
  'POST /api/searches': { access: [LOADS_CARRIER] },
  'DELETE /api/searches/:id': { access: [LOADS_CARRIER] },
};
