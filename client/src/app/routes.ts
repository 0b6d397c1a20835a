import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { matchRoute, type Parser } from 'wouter';
import {
  CHAT_USE,
  DISPLAY_USERS_SIDEMENU,
  LOAD_CREATE,
  LOAD_GET,
  LOAD_PROPOSAL_VIEW,
  LOADS_CARRIER,
  LOADS_PROPOSALS,
  LOADS_SHIPPER,
  OFFER_SUBMIT,
  PROPOSAL_LIST_CARRIER,
  PROPOSAL_SUBMIT,
  PROPOSAL_VIEW_ALL,
  SUPER_ADMIN,
  TOUR_ASSIGNEE,
  TOUR_TRACK_STATUS,
  TOUR_ASSIGNEES_LIST,
  TOURS_ALL,
  USER_CREATE,
  USERS_CARRIERS,
  USERS_SHIPPERS,
} from '../../../domain/permissions.ts';
import { driverRoles } from './menu.ts';
import { outboxTitleKey, samplePage1TitleKey, samplePage2TitleKey } from '../shared/shellTexts.ts';

import type { PageProps, RouteTitleKey } from './pageProps.ts';

export type { PageProps, RouteTitleKey };

export type Page = LazyExoticComponent<ComponentType<PageProps>>;

export interface AppRoute {
  path: string;
  titleKey: RouteTitleKey;
  page: Page;
  /** Public routes are open to visitors; the others need a signed-in user. */
  public?: boolean;
  /** The user needs any one of these codes (docs/domain.md: a route naming several codes is open to a holder of any). */
  permissions?: readonly number[];
  /** A role's own page: besides a code, the user needs one of these roles (by name). */
  roles?: readonly string[];
}

// Every page is its own chunk: the map screens (OpenLayers) never weigh on the first load.
const LandingPage: Page = lazy(() => import('../pages/landing/LandingPage.tsx'));
const SignInPage: Page = lazy(() => import('../pages/auth/SignInPage.tsx'));
const NotFoundPage: Page = lazy(() => import('../pages/errors/NotFoundPage.tsx'));
const ErrorPages: Page = lazy(() => import('../pages/errors/ErrorStatusPage.tsx'));
const SamplePage: Page = lazy(() => import('../pages/errors/SamplePage.tsx'));
const SignUpSelectPage: Page = lazy(() => import('../pages/signup/SignUpSelectPage.tsx'));
const SignUpPage: Page = lazy(() => import('../pages/signup/SignUpPage.tsx'));
const ConfirmSignUpPage: Page = lazy(() => import('../pages/signup/ConfirmSignUpPage.tsx'));
const SignUpCompletePage: Page = lazy(() => import('../pages/signup/SignUpCompletePage.tsx'));
const ForgetPasswordPage: Page = lazy(() => import('../pages/auth/ForgetPasswordPage.tsx'));
const ResetPasswordPage: Page = lazy(() => import('../pages/auth/ResetPasswordPage.tsx'));
const TermsPage: Page = lazy(() => import('../pages/legal/TermsPage.tsx'));
const PrivacyPage: Page = lazy(() => import('../pages/legal/PrivacyPage.tsx'));
const OrganizationsPage: Page = lazy(() => import('../pages/users/OrganizationsPage.tsx'));
const DriversPage: Page = lazy(() => import('../pages/users/DriversPage.tsx'));
const UsersAllPage: Page = lazy(() => import('../pages/users/UsersAllPage.tsx'));
const UserFormPage: Page = lazy(() => import('../pages/users/UserFormPage.tsx'));
const AddOrganizationPage: Page = lazy(() => import('../pages/admin/AddOrganizationPage.tsx'));
const OutboxPage: Page = lazy(() => import('../pages/admin/OutboxPage.tsx'));
/** Screens built by later issues show their title and a "coming soon" state until they swap in here. */
const ComingSoon: Page = lazy(() => import('../pages/common/ComingSoonPage.tsx'));

const publicRoute = (path: string, titleKey: RouteTitleKey, page: Page = ComingSoon): AppRoute => ({
  path,
  titleKey,
  page,
  public: true,
});
const gated = (
  path: string,
  titleKey: RouteTitleKey,
  permissions: readonly number[],
  page: Page = ComingSoon,
): AppRoute => ({ path, titleKey, page, permissions });

/** The specification's route tables (section 2), in one place. */
export const routes: readonly AppRoute[] = [
  publicRoute('/', 'routes.landing', LandingPage),
  publicRoute('/signin', 'routes.signIn', SignInPage),
  publicRoute('/signin/select', 'routes.signInSelect', SignInPage),
  publicRoute('/signup/select', 'routes.signUpSelect', SignUpSelectPage),
  publicRoute('/signup/shipper', 'routes.signUpShipper', SignUpPage),
  publicRoute('/signup/carrier', 'routes.signUpCarrier', SignUpPage),
  publicRoute('/confirm-signup', 'routes.confirmSignUp', ConfirmSignUpPage),
  publicRoute('/signup-complete', 'routes.signUpComplete', SignUpCompletePage),
  publicRoute('/forget-password', 'routes.forgetPassword', ForgetPasswordPage),
  publicRoute('/reset-password', 'routes.resetPassword', ResetPasswordPage),
  publicRoute('/terms', 'routes.terms', TermsPage),
  publicRoute('/privacy', 'routes.privacy', PrivacyPage),
  // A tracking link: anyone holding it, signed in or not.
  publicRoute(
    '/shared/track/:token',
    'routes.trackTour',
    lazy(() => import('../pages/track/SharedTrackPage.tsx')),
  ),
  // A dock link: the pickup dock, signed in or not.
  publicRoute(
    '/dock/:token',
    'routes.dock',
    lazy(() => import('../pages/dock/DockPage.tsx')),
  ),
  // The old contact's link cancelling a held change of the organization's contact, signed in or not.
  publicRoute(
    '/organization-change/:token/cancel',
    'routes.organizationChangeCancel',
    lazy(() => import('../pages/organizationChange/OrganizationChangeCancelPage.tsx')),
  ),
  publicRoute('/error-pages/error-404', 'routes.notFound', NotFoundPage),
  publicRoute('/error-pages/error-500', 'routes.error500', ErrorPages),
  publicRoute('/error-pages/coming-soon', 'routes.comingSoon', ErrorPages),
  publicRoute('/error-pages/maintenance', 'routes.maintenance', ErrorPages),
  // The template's sample pages: any signed-in user (the specification's role 'user').
  gated('/sample/page-1', samplePage1TitleKey, [], SamplePage),
  gated('/sample/page-2', samplePage2TitleKey, [], SamplePage),

  gated(
    '/loads/shipper',
    'routes.loadsShipper',
    [LOADS_SHIPPER],
    lazy(() => import('../pages/loads/ShipperLoadsPage.tsx')),
  ),
  gated(
    '/loads/carrier',
    'routes.loadsCarrier',
    [LOADS_CARRIER],
    lazy(() => import('../pages/loads/CarrierLoadsPage.tsx')),
  ),
  gated(
    '/load',
    'routes.loadCreate',
    [LOAD_CREATE],
    lazy(() => import('../pages/loads/LoadFormPage.tsx')),
  ),
  gated(
    '/loads/upload',
    'routes.loadsUpload',
    [LOAD_CREATE],
    lazy(() => import('../pages/loads/BatchUploadPage.tsx')),
  ),
  gated(
    '/loads/edit',
    'routes.loadCreate',
    [LOAD_CREATE],
    lazy(() => import('../pages/loads/LoadFormPage.tsx')),
  ),
  // The load id as the third path segment: 'Updating Load {id}'.
  gated(
    '/loads/edit/:id',
    'routes.loadEdit',
    [LOAD_CREATE],
    lazy(() => import('../pages/loads/LoadFormPage.tsx')),
  ),
  gated(
    '/loads/history/:id',
    'routes.loadHistory',
    [LOAD_GET],
    lazy(() => import('../pages/history/LoadHistoryPage.tsx')),
  ),
  gated(
    '/tours',
    'routes.tours',
    [TOURS_ALL],
    lazy(() => import('../pages/tours/ToursPage.tsx')),
  ),
  // A facility's page: any signed-in user (GET facilities/{id}).
  gated(
    '/facilities/:id',
    'routes.facility',
    [],
    lazy(() => import('../pages/facilities/FacilityPage.tsx')),
  ),
  gated(
    '/invoices',
    'routes.invoices',
    [TOURS_ALL],
    lazy(() => import('../pages/invoices/InvoicesPage.tsx')),
  ),
  gated(
    '/insights/lanes',
    'routes.laneRates',
    [LOADS_SHIPPER, LOADS_CARRIER],
    lazy(() => import('../pages/laneRates/LaneRatesPage.tsx')),
  ),
  gated(
    '/insights/aging',
    'routes.aging',
    [LOADS_SHIPPER, LOADS_CARRIER],
    lazy(() => import('../pages/aging/AgingPage.tsx')),
  ),
  gated('/users/shippers/active', 'routes.shippersActive', [USERS_SHIPPERS], OrganizationsPage),
  gated('/users/shippers/blocked', 'routes.shippersBlocked', [USERS_SHIPPERS], OrganizationsPage),
  gated('/users/shippers/pending', 'routes.shippersPending', [USERS_SHIPPERS], OrganizationsPage),
  gated('/users/carriers/active', 'routes.carriersActive', [USERS_CARRIERS], OrganizationsPage),
  gated('/users/carriers/blocked', 'routes.carriersBlocked', [USERS_CARRIERS], OrganizationsPage),
  gated('/users/carriers/pending', 'routes.carriersPending', [USERS_CARRIERS], OrganizationsPage),
  // A Superadmin's every driver with its carrier; a carrier's own drivers.
  gated('/users/drivers/active', 'routes.driversActive', [TOUR_ASSIGNEES_LIST], DriversPage),
  gated('/users/drivers/blocked', 'routes.driversBlocked', [TOUR_ASSIGNEES_LIST], DriversPage),
  gated('/users/drivers/pending', 'routes.driversPending', [TOUR_ASSIGNEES_LIST], DriversPage),
  gated('/users/all', 'routes.usersAll', [DISPLAY_USERS_SIDEMENU], UsersAllPage),
  gated('/add-organization', 'routes.addOrganization', [SUPER_ADMIN], AddOrganizationPage),
  gated('/admin/outbox', outboxTitleKey, [SUPER_ADMIN], OutboxPage),
  gated(
    '/admin/projections',
    'routes.readModels',
    [SUPER_ADMIN],
    lazy(() => import('../pages/admin/ProjectionsPage.tsx')),
  ),
  gated('/user/create', 'routes.userCreate', [USER_CREATE], UserFormPage),
  gated('/user/edit/:id?', 'routes.userEdit', [USER_CREATE], UserFormPage),
  gated(
    '/offer/load/:id?',
    'routes.offerLoad',
    [OFFER_SUBMIT, PROPOSAL_SUBMIT, LOAD_PROPOSAL_VIEW],
    lazy(() => import('../pages/offers/OfferLoadPage.tsx')),
  ),
  gated(
    '/offers/shipper/load/:id?',
    'routes.offersShipperLoad',
    [LOADS_PROPOSALS],
    lazy(() => import('../pages/offers/ShipperOffersPage.tsx')),
  ),
  gated(
    '/offers/carrier',
    'routes.offersCarrier',
    [PROPOSAL_LIST_CARRIER],
    lazy(() =>
      import('../pages/offers/OffersTablePage.tsx').then((module) => ({
        default: module.CarrierOffersPage,
      })),
    ),
  ),
  gated(
    '/offers',
    'routes.offersAll',
    [PROPOSAL_VIEW_ALL],
    lazy(() =>
      import('../pages/offers/OffersTablePage.tsx').then((module) => ({
        default: module.AllOffersPage,
      })),
    ),
  ),
  gated(
    '/track/tour/:id?',
    'routes.trackTour',
    [TOUR_TRACK_STATUS],
    lazy(() => import('../pages/track/TrackTourPage.tsx')),
  ),
  gated(
    '/chat/tour/:id?',
    'routes.chatTour',
    [CHAT_USE],
    lazy(() => import('../pages/chat/TourChatPage.tsx')),
  ),
  // The driver's own tours: a Superadmin holds TOUR_ASSIGNEE too, but drives none.
  {
    ...gated(
      '/driver',
      'routes.driver',
      [TOUR_ASSIGNEE],
      lazy(() => import('../pages/driver/DriverPage.tsx')),
    ),
    roles: driverRoles,
  },
];

export interface RouteMatch {
  route: AppRoute;
  params: Record<string, string | undefined>;
}

/** A path segment as typed; kept raw when it is not valid percent-encoding. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The route of a path (without its query), or null for an unknown path: the first of `routes` that
 * wouter's `matchRoute` matches with the router's parser (a trailing slash allowed, case ignored).
 */
export function matchPath(path: string, parser: Parser): RouteMatch | null {
  const pathname = path.split(/[?#]/)[0] || '/';
  for (const route of routes) {
    const [found, matched] = matchRoute(parser, route.path, pathname);
    if (!found) continue;
    const params: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(matched as Record<string, string | undefined>)) {
      // wouter keeps positional captures too ('0', '1', …): only the named ones are the route's.
      if (/^\d+$/.test(key)) continue;
      params[key] = value === undefined ? undefined : decoded(value);
    }
    return { route, params };
  }
  return null;
}
