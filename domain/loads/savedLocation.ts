/**
 * An organization's saved locations (stream `savedlocations-<organizationId>`): stops a shipper ticked
 * "save location" on, offered again in the load form. Saving the same facility at the same place
 * again replaces it.
 */
import type { LocationTypeId } from '../catalog.ts';
import type { Event } from '../shared/event.ts';

export const savedLocationsStream = (organizationId: string): string =>
  `savedlocations-${organizationId}`;

export type SavedLocation = {
  id: string;
  name: string;
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  contactName: string | null;
  contactPhone: string | null;
  number: string | null;
  locationType: LocationTypeId;
};

export type LocationSaved = Event<
  'LocationSaved',
  { organizationId: string; location: SavedLocation; savedBy: string; savedAt: string }
>;
