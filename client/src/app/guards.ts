import type { Parser } from 'wouter';
import { hasAny } from '../../../domain/permissions.ts';
import { type AuthUser, roleNames } from '../state/session.ts';
import { homePathOf } from './homePath.ts';
import { entryPaths, paths } from './paths.ts';
import { matchPath, type RouteMatch } from './routes.ts';

export { homePathOf };

export const isEntryPath = (path: string): boolean =>
  (entryPaths as readonly string[]).includes(path.split(/[?#]/)[0] || '/');

export type RouteDecision =
  | { kind: 'render'; match: RouteMatch }
  | { kind: 'redirect'; to: string; remember?: string };

export function canOpen(match: RouteMatch, user: AuthUser | null): boolean {
  if (match.route.public) return true;
  if (!user) return false;
  const codes = match.route.permissions ?? [];
  if (codes.length > 0 && !hasAny(user.permissions, ...codes)) return false;
  const roles = match.route.roles;
  return !roles || roleNames(user).some((role) => roles.includes(role));
}

/**
 * The redirect rules, in order:
 * - an unknown path goes to the 404 page;
 * - a signed-out visitor on a page that is not public goes to /signin/ (the path is remembered);
 * - a signed-in user at the root, /signin/ or /signup/select goes to the remembered initial path,
 *   or else to the home page of the role;
 * - a signed-in user without any of the route's permission codes (or without the role of a role's
 *   own page, /driver) goes to the 404 page.
 * Paths are matched by wouter with the router's `parser`.
 */
export function decideRoute(
  path: string,
  user: AuthUser | null,
  initialPath: string | null,
  parser: Parser,
): RouteDecision {
  const match = matchPath(path, parser);
  if (!match) return { kind: 'redirect', to: paths.notFound };
  if (!user) {
    return match.route.public
      ? { kind: 'render', match }
      : { kind: 'redirect', to: paths.signInRedirect, remember: path };
  }
  if (isEntryPath(path)) {
    const remembered =
      initialPath && !isEntryPath(initialPath) ? matchPath(initialPath, parser) : null;
    const restore = remembered && !remembered.route.public && canOpen(remembered, user);
    return { kind: 'redirect', to: restore && initialPath ? initialPath : homePathOf(user) };
  }
  if (!canOpen(match, user)) return { kind: 'redirect', to: paths.notFound };
  return { kind: 'render', match };
}

/**
 * Visitors, and anyone on a /chat, /track, /shared (a tracking link) or /organization-change (the
 * old contact's cancel link) path, get the bare layout.
 */
export const usesBareLayout = (path: string, user: AuthUser | null): boolean =>
  !user ||
  path.startsWith('/chat') ||
  path.startsWith('/track') ||
  path.startsWith('/shared') ||
  path.startsWith('/organization-change');
