import { renderHook } from '@testing-library/react';
import { useRouter } from 'wouter';
import { describe, expect, it } from 'vitest';
import { users } from '../test/users.ts';
import { decideRoute } from './guards.ts';
import { matchPath } from './routes.ts';

/** The parser of wouter's default router: the one `AppRoutes` matches with. */
const { parser } = renderHook(() => useRouter()).result.current;

describe('route matching with wouter', () => {
  it('finds the route of a path, with its named parameters only', () => {
    const edit = matchPath('/loads/edit/6f0c2a4e-1111-4222-8333-944455556666', parser);
    expect(edit?.route.path).toBe('/loads/edit/:id');
    expect(edit?.params).toEqual({ id: '6f0c2a4e-1111-4222-8333-944455556666' });
    expect(matchPath('/loads/edit', parser)?.route.path).toBe('/loads/edit');
  });

  it('allows a missing optional parameter, a trailing slash, another case and a query', () => {
    expect(matchPath('/user/edit', parser)?.params).toEqual({ id: undefined });
    expect(matchPath('/signin/', parser)?.route.path).toBe('/signin');
    expect(matchPath('/Loads/Shipper?page=2', parser)?.route.path).toBe('/loads/shipper');
  });

  it('decodes parameters, and keeps a malformed one as typed', () => {
    expect(matchPath('/chat/tour/a%20b', parser)?.params).toEqual({ id: 'a b' });
    expect(matchPath('/chat/tour/%E0%A4%A', parser)?.params).toEqual({ id: '%E0%A4%A' });
  });

  it('knows no other path', () => {
    expect(matchPath('/loads/edit/1/2', parser)).toBeNull();
    expect(matchPath('/nowhere', parser)).toBeNull();
  });
});

describe('the route guard', () => {
  it('sends an unknown path to the 404 page, signed in or not', () => {
    expect(decideRoute('/nowhere', null, null, parser)).toEqual({
      kind: 'redirect',
      to: '/error-pages/error-404',
    });
    expect(decideRoute('/nowhere', users.carrier, null, parser)).toEqual({
      kind: 'redirect',
      to: '/error-pages/error-404',
    });
  });

  it('sends a visitor on a guarded page to sign in, remembering the path', () => {
    expect(decideRoute('/tours', null, null, parser)).toEqual({
      kind: 'redirect',
      to: '/signin/',
      remember: '/tours',
    });
    expect(decideRoute('/terms', null, null, parser)).toMatchObject({
      kind: 'render',
      match: { route: { path: '/terms' } },
    });
  });

  it('renders a page only for a role holding one of its codes', () => {
    expect(decideRoute('/loads/shipper', users.shipper, null, parser)).toMatchObject({
      kind: 'render',
    });
    expect(decideRoute('/loads/shipper', users.carrier, null, parser)).toEqual({
      kind: 'redirect',
      to: '/error-pages/error-404',
    });
    expect(decideRoute('/driver', users.driver, null, parser)).toMatchObject({ kind: 'render' });
    // The driver's own page: a Superadmin holds TOUR_ASSIGNEE like every code, but drives no tour.
    expect(decideRoute('/driver', users.admin, null, parser)).toEqual({
      kind: 'redirect',
      to: '/error-pages/error-404',
    });
    expect(decideRoute('/admin/outbox', users.shipper, null, parser)).toEqual({
      kind: 'redirect',
      to: '/error-pages/error-404',
    });
    expect(decideRoute('/admin/outbox', users.admin, null, parser)).toMatchObject({
      kind: 'render',
    });
  });

  it('sends a signed-in user at the root to the remembered path, or else its home page', () => {
    expect(decideRoute('/', users.carrier, '/tours', parser)).toEqual({
      kind: 'redirect',
      to: '/tours',
    });
    expect(decideRoute('/', users.carrier, null, parser)).toEqual({
      kind: 'redirect',
      to: '/loads/carrier',
    });
    expect(decideRoute('/', users.carrier, '/loads/shipper', parser)).toEqual({
      kind: 'redirect',
      to: '/loads/carrier',
    });
  });
});
