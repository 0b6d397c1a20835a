import { apiGet, apiGetBlob } from '../../api/http.ts';

/** One event of a load's audit trail (GET /api/loads/{id}/history). */
export interface HistoryEvent {
  position: string;
  at: string;
  type: string;
  stream: string;
  user: { id: string; name: string | null } | null;
  organization: { id: string; name: string | null } | null;
  data: Record<string, unknown>;
}

export interface HistoryStop {
  id: string;
  locationType: number;
  address: string;
  city: string | null;
  state: string | null;
  name: string;
}

/** The load as it stood (domain/loads/load.types.ts `PostedLoad`), the fields this screen shows. */
export interface LoadSnapshot {
  loadId: string;
  guid: string;
  status: number;
  price: number | null;
  carrierOrganizationId: string | null;
  cancelMessage: string | null;
  updatedAt: string;
  details: {
    pickupStart: string;
    pickupTimezone: string;
    dropoffStart: string;
    dropoffTimezone: string;
    expiration: string;
    expirationTimezone: string;
    weight: number;
    commodity: string;
    refNumber: string;
    equipment: number[];
    stops: HistoryStop[];
  };
}

export interface ProposalSnapshot {
  proposalId: string;
  carrierOrganizationId: string;
  status: number;
  price: number;
  counterPrice: number | null;
  message: string;
  eldTruckName: string | null;
  submittedAt: string;
  updatedAt: string;
  /** The carrier as it was named at the snapshot's moment (a later rename does not show). */
  carrierOrganization?: { id: string; name: string | null };
}

export interface TourSnapshot {
  tourId: string;
  status: number;
  assigneeName: string | null;
  arrivedStopIds: string[];
  departedStopIds: string[];
  ratings: { shipper: unknown[] | null; carrier: unknown[] | null };
  updatedAt: string;
}

export interface HistoryAnswer {
  loadId: string;
  guid: string;
  at: string | null;
  events: HistoryEvent[];
  load?: LoadSnapshot | null;
  proposals?: ProposalSnapshot[];
  tour?: TourSnapshot | null;
}

const historyPath = (loadId: string) => `/loads/${encodeURIComponent(loadId)}/history`;

export const historyApi = {
  history: (loadId: string, at?: string, signal?: AbortSignal) =>
    apiGet<HistoryAnswer>(at ? `${historyPath(loadId)}?at=${encodeURIComponent(at)}` : historyPath(loadId), { signal }),
  csv: (loadId: string) => apiGetBlob(`${historyPath(loadId)}?format=csv`),
};
