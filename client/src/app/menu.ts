import {
  DISPLAY_USERS_SIDEMENU,
  LOAD_CREATE,
  LOADS_CARRIER,
  LOADS_SHIPPER,
  PROPOSAL_LIST_CARRIER,
  SUPER_ADMIN,
  TOUR_ASSIGNEE,
  TOUR_ASSIGNEES_LIST,
  USER_CREATE,
  USERS_CARRIERS,
  USERS_SHIPPERS,
  hasAny,
  Role,
  roles,
} from '../../../domain/permissions.ts';
import type { MenuLabelKey } from './textKeys.ts';
import { outboxMenuLabel } from '../shared/shellTexts.ts';

export type { MenuLabelKey };

/**
 * A section heading, a collapsible group or a plain item; visible to holders of any of
 * `permissions` and, where `roles` is given, only to users with one of those roles (by name).
 */
export interface MenuItem {
  id: string;
  label: MenuLabelKey;
  icon?: string;
  to?: string;
  permissions?: readonly number[];
  roles?: readonly string[];
  type?: 'section' | 'group' | 'item';
  children?: MenuItem[];
}

const roleName = (id: number): string => roles.find((role) => role.id === id)?.name ?? '';
/** The driver's own page: a Superadmin holds TOUR_ASSIGNEE too, but has no tours to drive. */
export const driverRoles: readonly string[] = [roleName(Role.Driver)];
/** Aging is an organization's own invoices: a Superadmin holds the codes but has none. */
const organizationRoles: readonly string[] = [roleName(Role.Shipper), roleName(Role.Carrier)];

const userList = (kind: 'shippers' | 'carriers' | 'drivers', permission: number): MenuItem[] => [
  {
    id: `${kind}-active`,
    label: 'menu.active',
    icon: 'pi pi-check-circle',
    to: `/users/${kind}/active`,
    permissions: [permission],
  },
  {
    id: `${kind}-blocked`,
    label: 'menu.blocked',
    icon: 'pi pi-ban',
    to: `/users/${kind}/blocked`,
    permissions: [permission],
  },
  {
    id: `${kind}-pending`,
    label: 'menu.pending',
    icon: 'pi pi-hourglass',
    to: `/users/${kind}/pending`,
    permissions: [permission],
  },
];

/** The specification's side menu (section 2, "Shell"), as data. */
export const menu: MenuItem[] = [
  {
    id: 'loads',
    type: 'section',
    label: 'menu.loadsSection',
    icon: 'pi pi-box',
    children: [
      {
        id: 'loads-shipper',
        label: 'menu.pendingShipments',
        icon: 'pi pi-box',
        to: '/loads/shipper',
        permissions: [LOADS_SHIPPER],
      },
      {
        id: 'loads-carrier',
        label: 'menu.searchLoads',
        icon: 'pi pi-search',
        to: '/loads/carrier',
        permissions: [LOADS_CARRIER],
      },
      {
        id: 'load-create',
        label: 'menu.addLoad',
        icon: 'pi pi-plus-circle',
        to: '/load',
        permissions: [LOAD_CREATE],
      },
      {
        id: 'loads-upload',
        label: 'menu.batchUpload',
        icon: 'pi pi-upload',
        to: '/loads/upload',
        permissions: [LOAD_CREATE],
      },
      {
        id: 'lane-rates',
        label: 'menu.laneRates',
        icon: 'pi pi-chart-line',
        to: '/insights/lanes',
        permissions: [LOADS_SHIPPER, LOADS_CARRIER],
      },
      {
        id: 'aging',
        label: 'menu.aging',
        icon: 'pi pi-wallet',
        to: '/insights/aging',
        permissions: [LOADS_SHIPPER, LOADS_CARRIER],
        roles: organizationRoles,
      },
    ],
  },
  {
    id: 'shipments',
    type: 'section',
    label: 'menu.activeShipments',
    icon: 'pi pi-truck',
    children: [
      {
        id: 'tours',
        type: 'group',
        label: 'menu.tours',
        icon: 'pi pi-truck',
        children: [
          {
            id: 'tours-all',
            label: 'menu.all',
            icon: 'pi pi-list',
            to: '/tours',
            permissions: [LOADS_SHIPPER, LOADS_CARRIER],
          },
        ],
      },
      {
        id: 'invoices',
        label: 'menu.invoices',
        icon: 'pi pi-receipt',
        to: '/invoices',
        permissions: [LOADS_SHIPPER, LOADS_CARRIER],
      },
      {
        id: 'driver',
        label: 'menu.myTours',
        icon: 'pi pi-map-marker',
        to: '/driver',
        permissions: [TOUR_ASSIGNEE],
        roles: driverRoles,
      },
    ],
  },
  {
    id: 'bids',
    type: 'section',
    label: 'menu.activeBids',
    icon: 'pi pi-tags',
    children: [
      {
        id: 'offers',
        type: 'group',
        label: 'menu.offers',
        icon: 'pi pi-tags',
        children: [
          {
            id: 'offers-all',
            label: 'menu.all',
            icon: 'pi pi-list',
            to: '/offers/carrier',
            permissions: [PROPOSAL_LIST_CARRIER],
          },
        ],
      },
    ],
  },
  {
    id: 'administration',
    type: 'section',
    label: 'menu.administration',
    icon: 'pi pi-shield',
    children: [
      {
        id: 'add-organization',
        label: 'menu.addOrganization',
        icon: 'pi pi-building',
        to: '/add-organization',
        permissions: [SUPER_ADMIN],
      },
      {
        id: 'outbox',
        label: outboxMenuLabel,
        icon: 'pi pi-envelope',
        to: '/admin/outbox',
        permissions: [SUPER_ADMIN],
      },
      {
        id: 'read-models',
        label: 'menu.readModels',
        icon: 'pi pi-database',
        to: '/admin/projections',
        permissions: [SUPER_ADMIN],
      },
      {
        id: 'users',
        type: 'group',
        label: 'menu.users',
        icon: 'pi pi-users',
        to: '/user-list',
        children: [
          {
            id: 'shippers',
            type: 'group',
            label: 'menu.shippers',
            icon: 'pi pi-box',
            children: userList('shippers', USERS_SHIPPERS),
          },
          {
            id: 'carriers',
            type: 'group',
            label: 'menu.carriers',
            icon: 'pi pi-truck',
            children: userList('carriers', USERS_CARRIERS),
          },
          // Drivers: a Superadmin's every driver, a carrier's own (those who hold the drivers pick list).
          {
            id: 'drivers',
            type: 'group',
            label: 'menu.drivers',
            icon: 'pi pi-id-card',
            children: userList('drivers', TOUR_ASSIGNEES_LIST),
          },
          {
            id: 'users-all',
            label: 'menu.usersAll',
            icon: 'pi pi-id-card',
            to: '/users/all',
            permissions: [DISPLAY_USERS_SIDEMENU],
          },
          {
            id: 'user-create',
            label: 'menu.addNew',
            icon: 'pi pi-user-plus',
            to: '/user/create',
            permissions: [USER_CREATE],
          },
        ],
      },
    ],
  },
];

/**
 * The menu a user sees: items without any of their codes (or, for a role's own item, without that
 * role) are dropped, and groups or sections left with no child are dropped too.
 */
export function filterMenu(
  items: readonly MenuItem[],
  permissions: readonly number[],
  roleNames: readonly string[] = [],
): MenuItem[] {
  const result: MenuItem[] = [];
  for (const item of items) {
    if (
      item.permissions &&
      item.permissions.length > 0 &&
      !hasAny(permissions, ...item.permissions)
    )
      continue;
    if (item.roles && !item.roles.some((role) => roleNames.includes(role))) continue;
    if (item.children) {
      const children = filterMenu(item.children, permissions, roleNames);
      if (children.length === 0) continue;
      result.push({ ...item, children });
    } else {
      result.push(item);
    }
  }
  return result;
}

/** The links of a menu (its plain items' routes), in order. */
export const menuRoutes = (items: readonly MenuItem[]): string[] =>
  items.flatMap((item) => [
    ...(item.to && !item.children ? [item.to] : []),
    ...menuRoutes(item.children ?? []),
  ]);

/** Whether the path is the item's own or one of its descendants' (a parent is highlighted then). */
export function isActiveItem(item: MenuItem, path: string): boolean {
  const pathname = path.replace(/\/+$/, '') || '/';
  if (item.to && !item.children && (pathname === item.to || pathname.startsWith(`${item.to}/`)))
    return true;
  return (item.children ?? []).some((child) => isActiveItem(child, path));
}
