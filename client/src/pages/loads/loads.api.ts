import { apiDelete, apiGet, apiGetBlob, apiPost, apiPut } from '../../api/http.ts';
import type { TableRow } from '../../api/table.ts';

/** A place of `GET /api/places/autocomplete` (the gazetteer; GeoNames, CC BY 4.0). */
export interface Place {
  id: string;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  zip: string | null;
}

/** A saved location of `GET /api/loads/list/getSavedLocations`. */
export interface SavedLocation {
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
  locationType: number;
}

export interface RowPlace {
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  time: string | null;
  timeEnd: string | null;
  timezone: string;
}

/** The columns every load row shares (shipper table, marketplace). */
export interface LoadRowBase extends TableRow {
  id: string;
  guid: string;
  loadStatus: number;
  pickup: RowPlace;
  dropoff: RowPlace;
  pickupTime: string | null;
  dropoffTime: string | null;
  expiration: string | null;
  expirationTimezone: string;
  loadType: string | null;
  equipment: number[];
  equipmentNames: string[];
  accessories: number[];
  weight: number;
  commodity: string;
  refNumber: string;
  distance: number;
  stopsCount: number;
}

/** A row of `GET /api/loads/shipper`. */
export interface ShipperLoadRow extends LoadRowBase {
  statusKey: string;
  statusName: string;
  proposals: number;
  openProposals: number;
  newProposals: number;
  bestPrice: number | null;
  price: number | null;
  tourId: string | null;
  driver: string | null;
}

/** A row of `GET /api/loads/carrier`, or the `load:posted` payload (without myProposal and actions). */
export interface MarketplaceRow extends LoadRowBase {
  statusName: string;
  shipper: string;
  originDistance?: number | null;
  destinationDistance?: number | null;
  myProposal?: { id: string; status: number; statusName: string; price: number | null; counterPrice: number | null } | null;
  open?: boolean;
}

/** A stop of `GET /api/loads/{id}`. */
export interface LoadLocation {
  id: string;
  locationType: number;
  address: string;
  city: string | null;
  state: string | null;
  name: string;
  latitude: number;
  longitude: number;
  contactName: string | null;
  contactPhone: string | null;
  number: string | null;
}

/** `GET /api/loads/{id}`. */
export interface LoadDetail {
  id: string;
  guid: string;
  status: number;
  statusName: string;
  shipper: string | null;
  postedAt: string;
  pickupTimestampStart: string;
  pickupTimestampEnd: string | null;
  pickupTimezone: string;
  dropOffTimestampStart: string;
  dropOffTimestampEnd: string | null;
  dropoffTimezone: string;
  expiration: string;
  expirationTimezone: string;
  loadTypeId: number;
  carriersSortingTypeId: number | null;
  loadAccessories: number[];
  loadEquipment: number[];
  description: string;
  weight: number;
  commodity: string;
  refNumber: string;
  locations: LoadLocation[];
  contactsHidden: boolean;
  acceptedProposalId: string | null;
  price: number | null;
  tourId: string | null;
  contractFileId: string | null;
  cancelMessage: string | null;
  canEdit: boolean;
}

/** A carrier's saved search (lane alert) of `GET /api/searches`. */
export interface SearchArea {
  latitude: number;
  longitude: number;
  radius: number;
  label?: string;
}
export interface SavedSearch {
  id: string;
  name: string;
  origin?: SearchArea | null;
  destination?: SearchArea | null;
  equipment?: number[] | null;
}

export const loadsApi = {
  get: (id: string) => apiGet<LoadDetail>(`/loads/${encodeURIComponent(id)}`),
  create: (body: unknown) => apiPost<{ id: string; guid: string }>('/loads', body),
  update: (body: unknown) => apiPut<{ message: string }>('/loads', body),
  extendExpiration: (loadId: string, newExpiration: string, expirationTimezone: string) =>
    apiPut<{ message: string }>('/loads', { loadId, newExpiration, expirationTimezone }),
  cancel: (id: string, message: string) => apiPut<{ message: string }>(`/loads/${encodeURIComponent(id)}/status`, { status: 7, message }),
  savedLocations: () => apiGet<SavedLocation[]>('/loads/list/getSavedLocations'),
  places: (q: string, signal?: AbortSignal) => apiGet<Place[]>(`/places/autocomplete?q=${encodeURIComponent(q)}&limit=8`, { signal }),
  template: () => apiGetBlob('/loads/batchImport/template'),
  batchImport: (file: File) => {
    const form = new FormData();
    form.append('csv_loads_file', file);
    return apiPost<{ created: number; ids: string[] }>('/loads/batchImport', form);
  },
  searches: () => apiGet<SavedSearch[]>('/searches'),
  saveSearch: (body: Omit<SavedSearch, 'id'>) => apiPost<{ id: string }>('/searches', body),
  deleteSearch: (id: string) => apiDelete<void>(`/searches/${encodeURIComponent(id)}`),
};

/** Saves a Blob as a file download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Opens a Blob (a PDF) in a new tab. */
export function openBlob(blob: Blob): void {
  const url = URL.createObjectURL(blob);
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
