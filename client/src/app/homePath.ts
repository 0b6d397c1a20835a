import { type AuthUser, roleNames } from '../state/session.ts';
import { paths } from './paths.ts';

/** Each role's home page: Carrier, Shipper, Driver, Superadmin (specification "Startup and redirect rules"). */
export function homePathOf(user: AuthUser): string {
  const names = roleNames(user);
  if (names.includes('Carrier')) return paths.loadsCarrier;
  if (names.includes('Shipper')) return paths.loadsShipper;
  if (names.includes('Driver')) return paths.driver;
  if (names.includes('Superadmin')) return paths.loadsShipper;
  return paths.notFound;
}
