import { describe, expect, it } from 'vitest';
import {
  LOADS_CARRIER,
  LOADS_SHIPPER,
  permissionsFor,
  Role,
  USERS_SHIPPERS,
} from '../../../domain/permissions.ts';
import { filterMenu, isActiveItem, menu, menuRoutes as routesOf } from './menu.ts';

describe('the side menu', () => {
  it('keeps only the entries whose codes the user holds, and drops emptied groups', () => {
    expect(routesOf(filterMenu(menu, [LOADS_CARRIER]))).toEqual([
      '/loads/carrier',
      '/insights/lanes',
      '/tours',
      '/invoices',
    ]);
    expect(routesOf(filterMenu(menu, [LOADS_SHIPPER]))).toEqual([
      '/loads/shipper',
      '/insights/lanes',
      '/tours',
      '/invoices',
    ]);
    expect(routesOf(filterMenu(menu, [USERS_SHIPPERS]))).toEqual([
      '/users/shippers/active',
      '/users/shippers/blocked',
      '/users/shippers/pending',
    ]);
    expect(filterMenu(menu, [])).toEqual([]);
  });

  it("gives each role the specification's entries", () => {
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Driver), ['Driver']))).toEqual([
      '/driver',
    ]);
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Carrier), ['Carrier']))).toEqual([
      '/loads/carrier',
      '/insights/lanes',
      '/insights/aging',
      '/tours',
      '/invoices',
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

  it("gives 'My tours' to drivers only: a Superadmin holds the code but drives no tour", () => {
    const admin = routesOf(filterMenu(menu, permissionsFor(Role.Superadmin), ['Superadmin']));
    expect(admin).not.toContain('/driver');
    expect(admin).toContain('/loads/shipper');
    expect(admin).toContain('/users/all');
    // The code alone is not enough.
    expect(routesOf(filterMenu(menu, permissionsFor(Role.Driver)))).toEqual([]);
  });

  it("names the shipper's first Loads entry 'Pending Shipments' (the specification's Loads section)", () => {
    const loads = menu.find((item) => item.id === 'loads')!;
    expect(loads.children?.map((item) => item.label)).toEqual([
      'menu.pendingShipments',
      'menu.searchLoads',
      'menu.addLoad',
      'menu.batchUpload',
      'menu.laneRates',
      'menu.aging',
    ]);
    expect(loads.children?.[0].to).toBe('/loads/shipper');
  });

  it('marks a parent active when the path is one of its descendants', () => {
    const users = menu
      .find((item) => item.id === 'administration')!
      .children!.find((item) => item.id === 'users')!;
    expect(isActiveItem(users, '/users/carriers/blocked')).toBe(true);
    expect(isActiveItem(users, '/loads/shipper')).toBe(false);
  });
});
