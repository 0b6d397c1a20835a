import { describe, expect, it } from 'vitest';
import {
  LOADS_CARRIER,
  LOADS_SHIPPER,
  permissionsFor,
  Role,
  USERS_SHIPPERS,
} from '../../../domain/permissions.ts';
import { filterMenu, isActiveItem, menu, type MenuItem } from './menu.ts';

const routesOf = (items: MenuItem[]): string[] =>
  items.flatMap((item) => [
    ...(item.to && !item.children ? [item.to] : []),
    ...routesOf(item.children ?? []),
  ]);

describe('the side menu', () => {
  it('keeps only the entries whose codes the user holds, and drops emptied groups', () => {
    expect(routesOf(filterMenu(menu, [LOADS_CARRIER]))).toEqual([
      '/loads/carrier',
      '/insights/lanes',
      '/tours',
    ]);
    expect(routesOf(filterMenu(menu, [LOADS_SHIPPER]))).toEqual([
      '/loads/shipper',
      '/insights/lanes',
      '/tours',
    ]);
    expect(routesOf(filterMenu(menu, [USERS_SHIPPERS]))).toEqual([
      '/users/shippers/active',
      '/users/shippers/blocked',
      '/users/shippers/pending',
    ]);
    expect(filterMenu(menu, [])).toEqual([]);
  });

  it("gives each role the specification's entries", () => {
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Driver)))).toEqual(['/driver']);
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Carrier)))).toEqual([
      '/loads/carrier',
      '/insights/lanes',
      '/tours',
      '/offers/carrier',
      '/users/drivers/active',
      '/users/drivers/blocked',
      '/users/drivers/pending',
      '/users/all',
      '/user/create',
    ]);
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Shipper)))).not.toContain(
      '/users/drivers/active',
    );
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Superadmin)))).toContain(
      '/add-organization',
    );
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Superadmin)))).toContain(
      '/users/drivers/pending',
    );
  });

  it('marks a parent active when the path is one of its descendants', () => {
    const users = menu
      .find((item) => item.id === 'administration')!
      .children!.find((item) => item.id === 'users')!;
    expect(isActiveItem(users, '/users/carriers/blocked')).toBe(true);
    expect(isActiveItem(users, '/loads/shipper')).toBe(false);
  });
});
