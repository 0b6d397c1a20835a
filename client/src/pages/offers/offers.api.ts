import { apiGet, apiGetBlob, apiPost, apiPut } from '../../api/http.ts';
import { fetchTable } from '../../api/table.ts';
import type { AccessorialTerms } from '../../shared/terms/terms.ts';
import type { OfferMapMarker } from '../../../../domain/contracts/loads.contract.ts';
import type {
  ContractUploadedAnswer,
  OfferRow,
} from '../../../../domain/contracts/offers.contract.ts';
import type {
  CatalogueEntry as OrganizationService,
  NearTruck as EldTruck,
} from '../../../../domain/contracts/services.contract.ts';

/** Proposal statuses used by the offer screens (generic statuses of the specification). */
export const OfferStatus = {
  Accepted: 5,
  Canceled: 7,
  SubmittedProposal: 10,
  PendingAcceptance: 11,
  Declined: 12,
  Confirmed: 14,
} as const;

export type { OfferRow } from '../../../../domain/contracts/offers.contract.ts';
export type { OfferMapMarker } from '../../../../domain/contracts/loads.contract.ts';

/** An ELD service of `GET /api/organization-services`; a truck of `GET /api/services/{id}/trucks/{latitude}/{longitude}`, nearest first. */
export type {
  CatalogueEntry as OrganizationService,
  NearTruck as EldTruck,
} from '../../../../domain/contracts/services.contract.ts';

export const offersApi = {
  /** The caller's own offers on a load (a carrier sees only its own; 404 when it has none). */
  onLoad: (loadId: string) =>
    fetchTable<OfferRow>(`/proposal/${encodeURIComponent(loadId)}`, { page: 0, pageSize: 25 }),
  /** `terms`: the offer's own accessorial terms, when it proposes other terms than the load's. */
  submit: (
    loadId: string,
    body: {
      price: number;
      message: string;
      eldTruckName: string | null;
      terms?: AccessorialTerms | null;
    },
  ) => apiPost<{ id: string; message: string }>(`/proposal/${encodeURIComponent(loadId)}`, body),
  /** 5 accept, 12 decline, 11 counter (with price), 10 accept counter, 7 withdraw. */
  change: (
    offerId: string,
    status: number,
    extra: { price?: number; message?: string; terms?: AccessorialTerms | null } = {},
  ) =>
    apiPut<{ id: string; status: number }>(`/proposal/${encodeURIComponent(offerId)}`, {
      status,
      ...extra,
    }),
  mapMarkers: (loadId: string) =>
    apiGet<OfferMapMarker[]>(`/loads/${encodeURIComponent(loadId)}/proposals/map`),
  rateConfirmation: (offerId: string) =>
    apiGetBlob(`/proposal/${encodeURIComponent(offerId)}/rate-confirmation`),
  /** The signed contract: multipart with the plain field `status` = 14 and the file `contract`. */
  uploadContract: (loadId: string, file: File) => {
    const form = new FormData();
    form.append('status', '14');
    form.append('contract', file);
    return apiPost<ContractUploadedAnswer>(`/proposal/load/${encodeURIComponent(loadId)}`, form);
  },
  file: (fileId: string) => apiGetBlob(`/files/${encodeURIComponent(fileId)}`),
  services: () => apiGet<OrganizationService[]>('/organization-services'),
  trucksNear: (serviceId: string, latitude: number, longitude: number) =>
    apiGet<EldTruck[]>(
      `/services/${encodeURIComponent(serviceId)}/trucks/${latitude}/${longitude}`,
    ),
};

/** The ELD trucks of every installed service, nearest to the point first; none when ELD is not set up. */
export async function trucksNearest(latitude: number, longitude: number): Promise<EldTruck[]> {
  const services = await offersApi.services().catch(() => [] as OrganizationService[]);
  const installed = services.filter((service) => service.status === 'Installed');
  const lists = await Promise.all(
    installed.map((service) =>
      offersApi.trucksNear(service.id, latitude, longitude).catch(() => [] as EldTruck[]),
    ),
  );
  return lists.flat().sort((a, b) => (a.distance ?? Infinity) - (b.distance ?? Infinity));
}
