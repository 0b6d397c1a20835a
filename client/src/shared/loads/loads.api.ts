import { apiDelete, apiGet, apiGetBlob, apiPost, apiPut } from '../../api/http.ts';
import type {
  LoadDetail,
  LoadsImportedAnswer,
  MarketplaceRow as ContractMarketplaceRow,
  SavedLocation,
} from '../../../../domain/contracts/loads.contract.ts';
import type { Place } from '../../../../domain/contracts/places.contract.ts';
import type {
  SavedSearch,
  SavedSearchBody,
  SearchArea as ContractSearchArea,
} from '../../../../domain/contracts/searches.contract.ts';

export type { Place } from '../../../../domain/contracts/places.contract.ts';
export type {
  LoadDetail,
  LoadLocation,
  LoadRowBase,
  LoadsImportedAnswer,
  RowPlace,
  SavedLocation,
  ShipperLoadRow,
} from '../../../../domain/contracts/loads.contract.ts';
export type {
  SavedSearch,
  SavedSearchBody,
} from '../../../../domain/contracts/searches.contract.ts';

/** A marketplace row; one the realtime channel pushed (`load:posted`, `load:updated`) also says whether the load is still `open`. */
export type MarketplaceRow = ContractMarketplaceRow & { open?: boolean };

/** An area of the carrier's search form: a saved search's area, with the picked place's name while the form shows it. */
export type SearchArea = ContractSearchArea & { label?: string };

export const loadsApi = {
  get: (id: string) => apiGet<LoadDetail>(`/loads/${encodeURIComponent(id)}`),
  create: (body: unknown) => apiPost<{ id: string; guid: string }>('/loads', body),
  update: (body: unknown) => apiPut<{ message: string }>('/loads', body),
  extendExpiration: (loadId: string, newExpiration: string, expirationTimezone: string) =>
    apiPut<{ message: string }>('/loads', { loadId, newExpiration, expirationTimezone }),
  cancel: (id: string, message: string) =>
    apiPut<{ message: string }>(`/loads/${encodeURIComponent(id)}/status`, { status: 7, message }),
  savedLocations: () => apiGet<SavedLocation[]>('/loads/list/getSavedLocations'),
  places: (q: string, signal?: AbortSignal) =>
    apiGet<Place[]>(`/places/autocomplete?q=${encodeURIComponent(q)}&limit=8`, { signal }),
  template: () => apiGetBlob('/loads/batchImport/template'),
  batchImport: (file: File) => {
    const form = new FormData();
    form.append('csv_loads_file', file);
    return apiPost<LoadsImportedAnswer>('/loads/batchImport', form);
  },
  searches: () => apiGet<SavedSearch[]>('/searches'),
  saveSearch: (body: SavedSearchBody) => apiPost<{ id: string }>('/searches', body),
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
