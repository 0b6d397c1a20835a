import { apiGet, apiPost } from '../../api/http.ts';
import type {
  FacilityAnswer,
  TourFacility,
} from '../../../../domain/contracts/facilities.contract.ts';

export type {
  FacilityAnswer,
  FacilityBadge,
  TourFacility,
} from '../../../../domain/contracts/facilities.contract.ts';
export { facilityTags, type FacilityTag } from '../../../../domain/facilities/facility.ts';
export { FIGURES_FROM } from '../../../../domain/facilities/facilityFigures.ts';

const path = (id: string) => `/facilities/${encodeURIComponent(id)}`;

export const facilitiesApi = {
  get: (id: string, signal?: AbortSignal) => apiGet<FacilityAnswer>(path(id), { signal }),
  tag: (id: string, tags: string[]) => apiPost<FacilityAnswer>(`${path(id)}/tags`, { tags }),
  reply: (id: string, text: string) => apiPost<FacilityAnswer>(`${path(id)}/replies`, { text }),
  ofTour: (tourId: string, signal?: AbortSignal) =>
    apiGet<TourFacility[]>(`/tours/${encodeURIComponent(tourId)}/facilities`, { signal }),
};
