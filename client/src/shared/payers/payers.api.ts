import { apiGet, apiGetBlob } from '../../api/http.ts';
import type {
  AgingAnswer,
  PayerFiguresAnswer,
} from '../../../../domain/contracts/payers.contract.ts';
import type { PayerWindow } from '../../../../domain/invoices/payerFigures.ts';

export type {
  AgingAnswer,
  LoadPayerAnswer,
  PayerFiguresAnswer,
} from '../../../../domain/contracts/payers.contract.ts';

export const payersApi = {
  figures: (organizationId: string, window: PayerWindow, signal?: AbortSignal) =>
    apiGet<PayerFiguresAnswer>(`/insights/payers/${organizationId}?window=${window}`, { signal }),
  aging: (signal?: AbortSignal) => apiGet<AgingAnswer>('/insights/aging', { signal }),
  agingCsv: () => apiGetBlob('/insights/aging?format=csv'),
};
