import { apiGet, apiGetBlob } from '../../api/http.ts';
import type { HistoryAnswer } from '../../../../domain/contracts/history.contract.ts';

export type {
  HistoryAnswer,
  HistoryEvent,
  HistoryStop,
  LoadSnapshot,
  OfferSnapshot,
  TourSnapshot,
} from '../../../../domain/contracts/history.contract.ts';

const historyPath = (loadId: string) => `/loads/${encodeURIComponent(loadId)}/history`;

export const historyApi = {
  history: (loadId: string, at?: string, signal?: AbortSignal) =>
    apiGet<HistoryAnswer>(
      at ? `${historyPath(loadId)}?at=${encodeURIComponent(at)}` : historyPath(loadId),
      { signal },
    ),
  csv: (loadId: string) => apiGetBlob(`${historyPath(loadId)}?format=csv`),
};
