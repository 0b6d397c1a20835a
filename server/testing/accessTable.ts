/**
 * Who may call each route, declared by hand and checked by server/routes/authorization.spec.ts
 * against the app's own route table (the guard's codes, `config.public`) and against real requests.
 * A new route needs its row here, or that test fails naming it.
 */
import {
  ACCOUNT_CHANGE_CARRIER,
  ACCOUNT_CHANGE_ORGANIZATION,
  ACCOUNT_CHANGE_SHIPPER,
  ACCOUNT_EDIT_USER_PROFILE,
  ACCOUNT_GET_CARRIER,
  ACCOUNT_GET_ORGANIZATION,
  ACCOUNT_GET_SHIPPER,
  ACCOUNT_GET_USER,
  CHAT_USE,
  DISPLAY_USERS_SIDEMENU,
  LOAD_CREATE,
  LOAD_DELETE,
  LOAD_EDIT,
  LOAD_GET,
  LOAD_IMPORT,
  LOAD_PROPOSAL_VIEW,
  LOADS_CARRIER,
  LOADS_PROPOSALS,
  LOADS_SHIPPER,
  OFFER_SUBMIT,
  PROPOSAL_CANCEL,
  PROPOSAL_CHANGE_STATUS,
  PROPOSAL_LIST_CARRIER,
  PROPOSAL_SUBMIT,
  PROPOSAL_VIEW,
  PROPOSAL_VIEW_ALL,
  Role,
  SUPER_ADMIN,
  TOUR_ADD_EVENT,
  TOUR_ASSIGN,
  TOUR_ASSIGNEE,
  TOUR_ASSIGNEES_LIST,
  TOUR_CHANGE_STATUS,
  TOUR_GET,
  TOUR_GET_EVENTS,
  TOUR_GET_RATING_CRITERIA,
  TOUR_RATE,
  TOUR_TRACK_STATUS,
  TOURS_ALL,
  TOURS_ASSIGNED,
  USER_ACTIVATE,
  USER_ASSIGN_ORGANIZATION,
  USER_BLOCK,
  USER_CREATABLE_ROLES,
  USER_CREATE,
  USER_DELETE,
  USER_FILTERABLE_ROLES,
  USER_UPDATE,
  USERS_CARRIERS,
  USERS_SHIPPERS,
  type RoleId,
} from '../../domain/permissions.ts';
import type { RouteKey } from './routeInventory.ts';

/** What a tenant-scoped id names: another organization's one must answer 404, like an unknown one. */
export type TenantKind = 'user' | 'organization' | 'file' | 'load' | 'proposal' | 'tour';

export type Tenant = {
  /** A path parameter (`'id'`) or a field of the JSON body (`'body.id'`, `'body.organizationId'`). */
  param: string;
  kind: TenantKind;
};

/** Roles that get an answer other than the usual one, and why (docs/domain.md or docs/api.md is the reason). */
export type ByDesign = { roles: readonly RoleId[]; why: string };

export type RouteAccess =
  | { access: 'public' }
  /**
   * A trading partner's own call (EDI): no user, its API key as `Authorization: Bearer`; the route
   * is `config.public` for the guard, and answers 401 to anyone without a partner's key.
   */
  | { access: 'partnerKey' }
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
       * An open load of any Active shipper is on the marketplace (docs/domain.md "Marketplace visibility"): every
       * carrier may use this route with it, across organizations. The tenant fixture for a carrier is a
       * load it won, which is closed; the spec tries the open, foreign load separately.
       */
      openOnMarketplace?: true;
      /**
       * Open to the users of a Pending organization too (`config.whilePending`): their own account,
       * profile and documents. Every other guarded route answers them 403 'Your organization is not active yet'.
       */
      whilePending?: true;
    };

const PUBLIC = { access: 'public' } as const;
const PARTNER_KEY = { access: 'partnerKey' } as const;

/** Whether a row guards by the user's permission codes (neither public nor a partner's key). */
export const isUserGuarded = (
  access: RouteAccess,
): access is Extract<RouteAccess, { access: readonly number[] }> => Array.isArray(access.access);
const SIGNED_IN = { access: [] } as const;

const LOAD_ID = { param: 'id', kind: 'load' } as const;
const TOUR_ID = { param: 'id', kind: 'tour' } as const;
/** A load, offer or tour needs an organization: the Superadmin has none and acts from a shipper's or carrier's account. */
const NO_ORGANIZATION: ByDesign = {
  roles: [Role.Superadmin],
  why: 'a Superadmin belongs to no organization, and loads and offers are made by one',
};

const SHIPPER_LISTS: ByDesign = {
  roles: [Role.Superadmin],
  why: "a Superadmin belongs to no organization, and the lists are a shipper organization's",
};

const CARRIER_INVOICE_STEP: ByDesign = {
  roles: [Role.Superadmin, Role.Shipper],
  why: 'the carrier submits its invoice, answers a dispute and confirms the receipt',
};
const SHIPPER_INVOICE_STEP: ByDesign = {
  roles: [Role.Superadmin, Role.Carrier],
  why: "the shipper's dispatcher approves, disputes, schedules and pays an invoice",
};

export const accessTable: Readonly<Record<RouteKey, RouteAccess>> = {
  // platform
  'GET /api/health': PUBLIC,
  'GET /api/health/live': PUBLIC,
  'GET /api/health/ready': PUBLIC,
  'GET /api/catalog': PUBLIC,
  'GET /api/client-settings': PUBLIC,

  // auth
  'POST /api/login': PUBLIC,
  'POST /api/refresh-token': PUBLIC,
  'POST /api/logout': PUBLIC,
  'GET /api/profile': { ...SIGNED_IN, whilePending: true },
  // A public profile (name, organization, ratings): readable across organizations by design.
  'GET /api/profile/:id': SIGNED_IN,

  // registration
  'POST /api/register/carrier': PUBLIC,
  'POST /api/register/shipper': PUBLIC,
  'POST /api/confirm-signup': PUBLIC,
  'POST /api/confirm-signup/resend': PUBLIC,
  'POST /api/users/forgot-password': PUBLIC,
  'POST /api/users/reset-password': PUBLIC,
  'GET /api/admin/outbox': { access: [SUPER_ADMIN] },

  // read models in trouble
  'GET /api/admin/projections': { access: [SUPER_ADMIN] },
  'GET /api/admin/projections/:name/parked': { access: [SUPER_ADMIN] },
  'POST /api/admin/projections/:name/parked/:eventId/retry': { access: [SUPER_ADMIN] },
  'POST /api/admin/projections/:name/rebuild': { access: [SUPER_ADMIN] },
  'GET /api/admin/reactors': { access: [SUPER_ADMIN] },

  // users
  'GET /api/users/activate/:id': { access: [USER_ACTIVATE], tenant: { param: 'id', kind: 'user' } },
  'GET /api/users/block/:id': { access: [USER_BLOCK], tenant: { param: 'id', kind: 'user' } },
  'GET /api/users': { access: [DISPLAY_USERS_SIDEMENU] },
  'GET /api/users/list/shippers': { access: [USERS_SHIPPERS] },
  'GET /api/users/list/carriers': { access: [USERS_CARRIERS] },
  'POST /api/users': {
    access: [USER_CREATE],
    tenant: { param: 'body.organizationId', kind: 'organization' },
  },
  'PUT /api/users/:id': { access: [USER_UPDATE], tenant: { param: 'id', kind: 'user' } },
  'DELETE /api/users/deleteDriver': {
    access: [USER_DELETE],
    tenant: { param: 'body.id', kind: 'user' },
  },
  'POST /api/users/organization': { access: [SUPER_ADMIN] },
  'GET /api/users/organization': { access: [USER_ASSIGN_ORGANIZATION] },
  'GET /api/users/roles/creatable': { access: [USER_CREATABLE_ROLES] },
  'GET /api/users/roles/filterable': { access: [USER_FILTERABLE_ROLES] },
  // organizations: the Superadmin activates and blocks them (organizations.routes.spec.ts)
  'PUT /api/organizations/:id/status': {
    access: [SUPER_ADMIN],
    tenant: { param: 'id', kind: 'organization' },
  },
  // carrier authority: the Superadmin's FMCSA import; a carrier's authority to it and the Superadmin (fmcsa.spec.ts)
  'POST /api/admin/fmcsa/import': { access: [SUPER_ADMIN] },
  'GET /api/organizations/:id/authority': {
    ...SIGNED_IN,
    tenant: { param: 'id', kind: 'organization' },
    ownIdNotFoundFor: {
      roles: [Role.Shipper],
      why: 'a shipper organization has no operating authority: only carriers are looked up with the FMCSA',
    },
  },

  // account (always the caller's own user and organization)
  'GET /api/account': {
    access: [ACCOUNT_GET_USER, ACCOUNT_GET_ORGANIZATION, ACCOUNT_GET_SHIPPER, ACCOUNT_GET_CARRIER],
    whilePending: true,
  },
  'PUT /api/users': { access: [ACCOUNT_EDIT_USER_PROFILE], whilePending: true },
  'PUT /api/users/organization': { access: [ACCOUNT_CHANGE_ORGANIZATION], whilePending: true },
  // Two-factor sign-in of the caller's own account (docs/api.md "Two-factor sign-in").
  'POST /api/account/2fa/setup': { ...SIGNED_IN, whilePending: true },
  'POST /api/account/2fa/confirm': { ...SIGNED_IN, whilePending: true },
  'DELETE /api/account/2fa': { ...SIGNED_IN, whilePending: true },
  'POST /api/users/carrier': { access: [ACCOUNT_CHANGE_CARRIER], whilePending: true },
  'POST /api/users/shipper': { access: [ACCOUNT_CHANGE_SHIPPER], whilePending: true },
  // A file by its owner (server/integrations/files/fileAccess.ts); the fixture is an organization's document.
  'GET /api/files/:id': {
    ...SIGNED_IN,
    tenant: { param: 'id', kind: 'file' },
    whilePending: true,
    ownIdNotFoundFor: {
      roles: [Role.Driver],
      why: "an organization's documents are for its users who see its account; a driver reads only its own tours' files",
    },
  },

  // landing page (content and the sign-up-interest form)
  'GET /api/content/:type': PUBLIC,
  'POST /api/sendInfoToAdmin': PUBLIC,

  // places (the gazetteer; nothing of an organization)
  'GET /api/places/autocomplete': SIGNED_IN,
  'GET /api/places/reverse': SIGNED_IN,

  // loads
  'POST /api/loads': { access: [LOAD_CREATE], forbiddenFor: NO_ORGANIZATION },
  'PUT /api/loads': { access: [LOAD_EDIT], tenant: { param: 'body.loadId', kind: 'load' } },
  'PUT /api/loads/:id/status': { access: [LOAD_EDIT, LOAD_DELETE], tenant: LOAD_ID },
  'GET /api/loads/shipper': { access: [LOADS_SHIPPER] },
  'GET /api/loads/carrier': { access: [LOADS_CARRIER] },
  'GET /api/loads/list/getSavedLocations': { access: [LOAD_CREATE, LOAD_EDIT] },
  'GET /api/loads/batchImport/template': { access: [LOAD_IMPORT] },
  'POST /api/loads/batchImport': { access: [LOAD_IMPORT], forbiddenFor: NO_ORGANIZATION },
  // Every carrier reads an open load of any shipper (without its facility contacts).
  'GET /api/loads/:id': {
    access: [LOAD_GET, LOADS_SHIPPER, LOADS_CARRIER],
    tenant: LOAD_ID,
    openOnMarketplace: true,
  },
  'GET /api/loads/:id/proposals/map': {
    access: [LOADS_PROPOSALS, LOAD_GET],
    tenant: LOAD_ID,
    ownIdNotFoundFor: {
      roles: [Role.Carrier],
      why: "the map shows every offer's truck: the shipper's view, not the winning carrier's",
    },
  },
  'GET /api/loads/:id/history': { access: [LOAD_GET, LOADS_SHIPPER], tenant: LOAD_ID },

  // offers
  'GET /api/proposal/:id': {
    access: [LOADS_PROPOSALS, LOAD_PROPOSAL_VIEW],
    tenant: { param: 'id', kind: 'load' },
  },
  'GET /api/proposal/:loadId/proposal/:proposalId': {
    access: [PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW],
    tenant: [
      { param: 'loadId', kind: 'load' },
      { param: 'proposalId', kind: 'proposal' },
    ],
  },
  // Every carrier bids on an open load of any shipper.
  'POST /api/proposal/:id': {
    access: [OFFER_SUBMIT, PROPOSAL_SUBMIT],
    tenant: { param: 'id', kind: 'load' },
    forbiddenFor: NO_ORGANIZATION,
    openOnMarketplace: true,
  },
  // Every carrier books an open load of any shipper at its Book Now price.
  'POST /api/loads/:id/book': {
    access: [OFFER_SUBMIT, PROPOSAL_SUBMIT],
    tenant: LOAD_ID,
    forbiddenFor: NO_ORGANIZATION,
    openOnMarketplace: true,
  },
  'PUT /api/proposal/:id': {
    access: [PROPOSAL_CHANGE_STATUS, PROPOSAL_CANCEL],
    tenant: { param: 'id', kind: 'proposal' },
  },
  'POST /api/proposal/load/:loadId': {
    access: [PROPOSAL_CHANGE_STATUS],
    tenant: { param: 'loadId', kind: 'load' },
    ownIdNotFoundFor: {
      roles: [Role.Shipper],
      why: 'only the winning carrier uploads the signed contract',
    },
  },
  'GET /api/proposal/:id/rate-confirmation': {
    access: [PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW],
    tenant: { param: 'id', kind: 'proposal' },
  },
  'GET /api/proposals/carrier': { access: [PROPOSAL_LIST_CARRIER] },
  'GET /api/proposals': { access: [PROPOSAL_VIEW_ALL] },

  // tours (a driver's own tour is one assigned to it)
  'GET /api/tours': { access: [TOURS_ALL] },
  'GET /api/tours/assigned': { access: [TOURS_ASSIGNED] },
  'GET /api/tours/assignees': { access: [TOUR_ASSIGNEES_LIST] },
  'GET /api/tours/rating/:id': { access: [TOUR_GET_RATING_CRITERIA], tenant: TOUR_ID },
  'POST /api/tours/:id/rate': { access: [TOUR_RATE], tenant: TOUR_ID },
  'GET /api/tours/track/:id': { access: [TOUR_TRACK_STATUS], tenant: TOUR_ID },
  'GET /api/tours/:id/positions': { access: [TOUR_TRACK_STATUS], tenant: TOUR_ID },
  'GET /api/tours/:id': { access: [TOUR_GET], tenant: TOUR_ID },
  'POST /api/tours/:id/assign/:assigneeId': {
    access: [TOUR_ASSIGN],
    tenant: [TOUR_ID, { param: 'assigneeId', kind: 'user' }],
  },
  'PUT /api/tours/:id/status': { access: [TOUR_CHANGE_STATUS], tenant: TOUR_ID },
  'GET /api/tours/:id/events': { access: [TOUR_GET_EVENTS], tenant: TOUR_ID },
  'POST /api/tours/:id/events': { access: [TOUR_ADD_EVENT], tenant: TOUR_ID },
  'POST /api/tours/:id/positions': { access: [TOUR_ASSIGNEE], tenant: TOUR_ID },
  // proof of delivery: recorded by the assigned driver only (the tour's other parties get 403 on their own tour), read by the tour's parties
  'POST /api/tours/:id/pod': { access: [TOUR_GET], tenant: TOUR_ID },
  'GET /api/tours/:id/pod': { access: [TOUR_GET], tenant: TOUR_ID },
  // accessorial claims: the tour's parties read them; each side answers its part
  'GET /api/tours/:id/claims': { access: [TOUR_GET], tenant: TOUR_ID },
  'POST /api/tours/:id/claims/:claimId/approve': {
    access: [TOUR_GET],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Carrier, Role.Driver],
      why: "the shipper's dispatcher approves a claim",
    },
    ownIdNotFoundFor: { roles: [Role.Shipper], why: 'the probe names no claim of the tour' },
  },
  'POST /api/tours/:id/claims/:claimId/dispute': {
    access: [TOUR_GET],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Carrier, Role.Driver],
      why: "the shipper's dispatcher disputes a claim",
    },
    ownIdNotFoundFor: { roles: [Role.Shipper], why: 'the probe names no claim of the tour' },
  },
  'POST /api/tours/:id/claims/:claimId/answer': {
    access: [TOUR_GET],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Shipper, Role.Driver],
      why: 'the carrier answers a dispute',
    },
    ownIdNotFoundFor: { roles: [Role.Carrier], why: 'the probe names no claim of the tour' },
  },
  'POST /api/tours/:id/claims/:claimId/note': {
    access: [TOUR_GET],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Shipper, Role.Driver],
      why: 'the carrier adds notes to its claims',
    },
    ownIdNotFoundFor: { roles: [Role.Carrier], why: 'the probe names no claim of the tour' },
  },
  'POST /api/tours/:id/claims/:claimId/settle': {
    access: [TOUR_GET],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Shipper, Role.Carrier, Role.Driver],
      why: 'a Superadmin settles a disputed claim',
    },
    ownIdNotFoundFor: { roles: [Role.Superadmin], why: 'the probe names no claim of the tour' },
  },
  'POST /api/tours/:id/lumper': {
    access: [TOUR_GET],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Shipper, Role.Carrier],
      why: 'the assigned driver sends a lumper receipt',
    },
  },
  'GET /api/tours/:id/chat': { access: [CHAT_USE], tenant: TOUR_ID },
  'POST /api/tours/:id/chat': { access: [CHAT_USE], tenant: TOUR_ID },
  // tracking links: made by the tour's shipper or carrier, opened by anyone holding one
  'POST /api/tours/:id/share': {
    access: [TOURS_ALL],
    tenant: TOUR_ID,
    forbiddenFor: NO_ORGANIZATION,
  },
  'DELETE /api/tours/:id/share/:token': {
    access: [TOURS_ALL],
    tenant: TOUR_ID,
    forbiddenFor: NO_ORGANIZATION,
    ownIdNotFoundFor: {
      roles: [Role.Shipper, Role.Carrier],
      why: "the probe names no link of the tour, and an unknown link answers 404 on one's own tour too (server/routes/sharedTracking.spec.ts revokes real ones)",
    },
  },
  'GET /api/shared/track/:token': PUBLIC,
  // who comes to the dock: the assigned driver's release code, the shipper's dock links, the dock's page (pickupRelease.spec.ts)
  'GET /api/tours/:id/release-code': {
    access: [TOUR_ASSIGNEE],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin],
      why: 'the release code is shown to the assigned driver alone, never to anyone else',
    },
  },
  'POST /api/tours/:id/dock-link': {
    access: [TOURS_ALL],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Carrier],
      why: "the dock is the shipper's: only the tour's shipper makes a dock link",
    },
  },
  'DELETE /api/tours/:id/dock-link/:token': {
    access: [TOURS_ALL],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Superadmin, Role.Carrier],
      why: "only the tour's shipper revokes its dock links",
    },
    ownIdNotFoundFor: {
      roles: [Role.Shipper],
      why: "the probe names no link of the tour, and an unknown link answers 404 on one's own tour too (pickupRelease.spec.ts revokes real ones)",
    },
  },
  'GET /api/dock/:token': PUBLIC,
  'POST /api/dock/:token/release': PUBLIC,
  // the old contact's link cancelling a held change of an organization's contact (organizationContactHold.spec.ts)
  'POST /api/organizations/changes/:token/cancel': PUBLIC,

  // saved searches (lane alerts): always the caller's organization; another's id is 404 (searches.routes.spec.ts)
  'GET /api/searches': { access: [LOADS_CARRIER] },
  'POST /api/searches': { access: [LOADS_CARRIER] },
  'DELETE /api/searches/:id': { access: [LOADS_CARRIER] },

  // preferred and blocked carriers: the caller's own shipper organization's lists (carrierPreferences.routes.spec.ts)
  'GET /api/carriers/preferences': { access: [LOADS_SHIPPER], forbiddenFor: SHIPPER_LISTS },
  'PUT /api/carriers/preferences': { access: [LOADS_SHIPPER], forbiddenFor: SHIPPER_LISTS },
  'GET /api/carriers/choices': { access: [LOADS_SHIPPER], forbiddenFor: SHIPPER_LISTS },

  // facilities: any Active user reads one; a driver whose tour left it tags it, its shipper replies
  // (another's is 403, an unknown facility 404: facilities.routes.spec.ts)
  'GET /api/facilities/:id': SIGNED_IN,
  'POST /api/facilities/:id/tags': { access: [TOUR_ASSIGNEE] },
  'POST /api/facilities/:id/replies': { access: [LOADS_SHIPPER] },
  'GET /api/tours/:id/facilities': { access: [TOUR_GET], tenant: TOUR_ID },

  // lane rates: market-wide figures from agreed prices, for shipper and carrier users and the Superadmin (laneRates.routes.spec.ts)
  'GET /api/insights/lanes': { access: [LOADS_SHIPPER, LOADS_CARRIER] },
  'GET /api/insights/lanes/top': { access: [LOADS_SHIPPER, LOADS_CARRIER] },
  // days-to-pay: a shipper's payment figures, readable by every Active user across organizations by
  // design (carriers weigh them before an offer); aging: the caller's own organization's open invoices (payers.routes.spec.ts)
  'GET /api/insights/payers/:organizationId': SIGNED_IN,
  'GET /api/insights/aging': {
    access: [LOADS_SHIPPER, LOADS_CARRIER],
    forbiddenFor: {
      roles: [Role.Superadmin],
      why: "a Superadmin belongs to no organization, and aging is an organization's own invoices",
    },
  },

  // ELD services (the carrier's own account: reading 704, changing 706). An installation is named by
  // its id or its provider's within the caller's organization only; another organization's id is 404
  // (services.routes.spec.ts), so no tenant fixture kind is declared for it.
  'GET /api/organization-services': { access: [ACCOUNT_GET_CARRIER], whilePending: true },
  'POST /api/organization-services': { access: [ACCOUNT_CHANGE_CARRIER] },
  'PUT /api/organization-services': { access: [ACCOUNT_CHANGE_CARRIER] },
  'GET /api/services/:id/trucks': { access: [ACCOUNT_GET_CARRIER] },
  'GET /api/services/:serviceId/trucks/:latitude/:longitude': { access: [ACCOUNT_GET_CARRIER] },
  // the raw event feed (a WebSocket; a plain GET answers 426)
  'GET /api/events/stream': { access: [SUPER_ADMIN] },
  // invoices: a carrier's receivables and a shipper's payables; another organization's invoice is 404
  // (server/routes/invoices.routes.spec.ts). Each step is one side's, refused with 403 to the other before any id is read.
  'POST /api/tours/:id/confirm-delivery': {
    access: [TOUR_CHANGE_STATUS],
    tenant: TOUR_ID,
    forbiddenFor: {
      roles: [Role.Carrier, Role.Driver],
      why: 'the shipper confirms the delivery on the proof of delivery',
    },
  },
  'GET /api/invoices': { access: [TOURS_ALL] },
  'GET /api/invoices/:id': { access: [TOURS_ALL] },
  'POST /api/invoices/:id/submit': { access: [TOURS_ALL], forbiddenFor: CARRIER_INVOICE_STEP },
  'POST /api/invoices/:id/answer': { access: [TOURS_ALL], forbiddenFor: CARRIER_INVOICE_STEP },
  'POST /api/invoices/:id/receipt': { access: [TOURS_ALL], forbiddenFor: CARRIER_INVOICE_STEP },
  'POST /api/invoices/:id/approve': { access: [TOURS_ALL], forbiddenFor: SHIPPER_INVOICE_STEP },
  'POST /api/invoices/:id/dispute': { access: [TOURS_ALL], forbiddenFor: SHIPPER_INVOICE_STEP },
  'POST /api/invoices/:id/schedule': { access: [TOURS_ALL], forbiddenFor: SHIPPER_INVOICE_STEP },
  'POST /api/invoices/:id/pay': { access: [TOURS_ALL], forbiddenFor: SHIPPER_INVOICE_STEP },

  // webhooks: the managers of the caller's own organization; another's id is 404 (server/webhooks/webhooks.spec.ts)
  'GET /api/webhooks': { access: [USER_CREATE] },
  'POST /api/webhooks': { access: [USER_CREATE], forbiddenFor: NO_ORGANIZATION },
  'DELETE /api/webhooks/:id': { access: [USER_CREATE] },
  'GET /api/webhooks/:id/deliveries': { access: [USER_CREATE] },
  'POST /api/webhooks/:id/replay': { access: [USER_CREATE] },
  'POST /api/webhooks/:id/test': { access: [USER_CREATE] },
  // EDI: a shipper's managers (those who import loads) for their own organization; another's document
  // is 404 (server/edi/edi.spec.ts). A partner's own calls carry its API key instead of a sign-in.
  'GET /api/edi/partners': { access: [LOAD_IMPORT], forbiddenFor: NO_ORGANIZATION },
  'POST /api/edi/partners': { access: [LOAD_IMPORT], forbiddenFor: NO_ORGANIZATION },
  'POST /api/edi/inbound': PARTNER_KEY,
  'GET /api/edi/documents': { access: [LOAD_IMPORT], forbiddenFor: NO_ORGANIZATION },
  'GET /api/edi/documents/:id/raw': { access: [LOAD_IMPORT], forbiddenFor: NO_ORGANIZATION },
  'POST /api/edi/documents/:id/resend': { access: [LOAD_IMPORT], forbiddenFor: NO_ORGANIZATION },
  'GET /api/edi/mailbox': PARTNER_KEY,
  'POST /api/edi/mailbox/ack': PARTNER_KEY,
};
