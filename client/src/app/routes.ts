import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import {
  CHAT_USE, DISPLAY_USERS_SIDEMENU, LOAD_CREATE, LOAD_GET, LOAD_PROPOSAL_VIEW, LOADS_CARRIER, LOADS_PROPOSALS, LOADS_SHIPPER,
  OFFER_SUBMIT, PROPOSAL_LIST_CARRIER, PROPOSAL_SUBMIT, PROPOSAL_VIEW_ALL, SUPER_ADMIN, TOUR_ASSIGNEE, TOUR_TRACK_STATUS,
  TOURS_ALL, USER_CREATE, USERS_CARRIERS, USERS_SHIPPERS,
} from '../../../domain/permissions.ts';
import type en from '../i18n/en.json';

export type RouteTitleKey = `routes.${keyof typeof en.routes}`;

/** What every page receives: its title key and the path's parameters. */
export interface PageProps {
  titleKey: RouteTitleKey;
  params: Record<string, string | undefined>;
}

export type Page = LazyExoticComponent<ComponentType<PageProps>>;

export interface AppRoute {
  path: string;
  titleKey: RouteTitleKey;
  page: Page;
  /** Public routes are open to visitors; the others need a signed-in user. */
  public?: boolean;
  /** The user needs any one of these codes (DOMAIN.md: a route naming several codes is open to a holder of any). */
  permissions?: readonly number[];
}

// Every page is its own chunk: the map screens (OpenLayers) never weigh on the first load.
const LandingPage: Page = lazy(() => import('../pages/landing/LandingPage.tsx'));
const SignInPage: Page = lazy(() => import('../pages/auth/SignInPage.tsx'));
const NotFoundPage: Page = lazy(() => import('../pages/errors/NotFoundPage.tsx'));
const ErrorPages: Page = lazy(() => import('../pages/errors/ErrorStatusPage.tsx'));
/** Screens built by later issues show their title and a "coming soon" state until they swap in here. */
const ComingSoon: Page = lazy(() => import('../pages/common/ComingSoonPage.tsx'));

const publicRoute = (path: string, titleKey: RouteTitleKey, page: Page = ComingSoon): AppRoute => ({ path, titleKey, page, public: true });
const gated = (path: string, titleKey: RouteTitleKey, permissions: readonly number[], page: Page = ComingSoon): AppRoute => ({ path, titleKey, page, permissions });

/** The specification's route tables (section 2), in one place. */
export const routes: readonly AppRoute[] = [
  publicRoute('/', 'routes.landing', LandingPage),
  publicRoute('/signin', 'routes.signIn', SignInPage),
  publicRoute('/signin/select', 'routes.signInSelect', SignInPage),
  publicRoute('/signup/select', 'routes.signUpSelect'),
  publicRoute('/signup/shipper', 'routes.signUpShipper'),
  publicRoute('/signup/carrier', 'routes.signUpCarrier'),
  publicRoute('/confirm-signup', 'routes.confirmSignUp'),
  publicRoute('/signup-complete', 'routes.signUpComplete'),
  publicRoute('/forget-password', 'routes.forgetPassword'),
  publicRoute('/reset-password', 'routes.resetPassword'),
  publicRoute('/terms', 'routes.terms'),
  publicRoute('/privacy', 'routes.privacy'),
  publicRoute('/error-pages/error-404', 'routes.notFound', NotFoundPage),
  publicRoute('/error-pages/error-500', 'routes.error500', ErrorPages),
  publicRoute('/error-pages/coming-soon', 'routes.comingSoon', ErrorPages),
  publicRoute('/error-pages/maintenance', 'routes.maintenance', ErrorPages),

  gated('/loads/shipper', 'routes.loadsShipper', [LOADS_SHIPPER]),
  gated('/loads/carrier', 'routes.loadsCarrier', [LOADS_CARRIER]),
  gated('/load', 'routes.loadCreate', [LOAD_CREATE]),
  gated('/loads/upload', 'routes.loadsUpload', [LOAD_CREATE]),
  gated('/loads/edit', 'routes.loadCreate', [LOAD_CREATE]),
  // The load id as the third path segment: 'Updating Load {id}'.
  gated('/loads/edit/:id', 'routes.loadEdit', [LOAD_CREATE]),
  gated('/loads/history/:id', 'routes.loadHistory', [LOAD_GET]),
  gated('/tours', 'routes.tours', [TOURS_ALL]),
  gated('/users/shippers/active', 'routes.shippersActive', [USERS_SHIPPERS]),
  gated('/users/shippers/blocked', 'routes.shippersBlocked', [USERS_SHIPPERS]),
  gated('/users/shippers/pending', 'routes.shippersPending', [USERS_SHIPPERS]),
  gated('/users/carriers/active', 'routes.carriersActive', [USERS_CARRIERS]),
  gated('/users/carriers/blocked', 'routes.carriersBlocked', [USERS_CARRIERS]),
  gated('/users/carriers/pending', 'routes.carriersPending', [USERS_CARRIERS]),
  gated('/users/all', 'routes.usersAll', [DISPLAY_USERS_SIDEMENU]),
  gated('/add-organization', 'routes.addOrganization', [SUPER_ADMIN]),
  gated('/user/create', 'routes.userCreate', [USER_CREATE]),
  gated('/user/edit/:id?', 'routes.userEdit', [USER_CREATE]),
  gated('/offer/load/:id?', 'routes.offerLoad', [OFFER_SUBMIT, PROPOSAL_SUBMIT, LOAD_PROPOSAL_VIEW]),
  gated('/offers/shipper/load/:id?', 'routes.offersShipperLoad', [LOADS_PROPOSALS]),
  gated('/offers/carrier', 'routes.offersCarrier', [PROPOSAL_LIST_CARRIER]),
  gated('/offers', 'routes.offersAll', [PROPOSAL_VIEW_ALL]),
  gated('/track/tour/:id?', 'routes.trackTour', [TOUR_TRACK_STATUS]),
  gated('/chat/tour/:id?', 'routes.chatTour', [CHAT_USE]),
  gated('/driver', 'routes.driver', [TOUR_ASSIGNEE]),
];

interface CompiledRoute {
  route: AppRoute;
  pattern: RegExp;
  keys: string[];
}

/** `/a/:id?` to a regular expression; a trailing slash is allowed, as wouter allows it. */
function compile(route: AppRoute): CompiledRoute {
  const keys: string[] = [];
  const source = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      if (!segment.startsWith(':')) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      const optional = segment.endsWith('?');
      keys.push(segment.slice(1, optional ? -1 : undefined));
      return optional ? '(?:/([^/]+))?' : '/([^/]+)';
    })
    .join('');
  return { route, keys, pattern: new RegExp(`^${source}/?$`, 'i') };
}

const compiled = routes.map(compile);

export interface RouteMatch {
  route: AppRoute;
  params: Record<string, string | undefined>;
}

/** The route of a path (without its query), or null for an unknown path. */
export function matchPath(path: string): RouteMatch | null {
  const pathname = path.split(/[?#]/)[0] || '/';
  for (const { route, pattern, keys } of compiled) {
    const found = pattern.exec(pathname);
    if (found) {
      const params: Record<string, string | undefined> = {};
      keys.forEach((key, index) => {
        const value = found[index + 1];
        params[key] = value === undefined ? undefined : decodeURIComponent(value);
      });
      return { route, params };
    }
  }
  return null;
}
