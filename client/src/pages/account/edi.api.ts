import { apiGet, apiGetBlob, apiPost } from '../../api/http.ts';
import type {
  EdiDocumentRow,
  EdiPartner,
  EdiPartnerBody,
  EdiPartnerCreated,
} from '../../../../domain/contracts/edi.contract.ts';
import type { TableAnswer } from '../../../../domain/contracts/common.ts';

export type {
  EdiDocumentRow,
  EdiError,
  EdiPartner,
  EdiPartnerCreated,
} from '../../../../domain/contracts/edi.contract.ts';

/** docs/api.md "EDI": the shipper's trading partners and the documents exchanged with them. */
export const listEdiPartners = (signal?: AbortSignal) =>
  apiGet<EdiPartner[]>('/edi/partners', { signal });
export const createEdiPartner = (body: EdiPartnerBody) =>
  apiPost<EdiPartnerCreated>('/edi/partners', body);
export const listEdiDocuments = (page: number, pageSize: number, signal?: AbortSignal) =>
  apiGet<TableAnswer<EdiDocumentRow>>(`/edi/documents?page=${page}&pageSize=${pageSize}`, {
    signal,
  });
export const ediDocumentText = async (id: string) =>
  (await apiGetBlob(`/edi/documents/${encodeURIComponent(id)}/raw`)).text();
export const resendEdiDocument = (id: string) =>
  apiPost<{ id: string; status: string }>(`/edi/documents/${encodeURIComponent(id)}/resend`);
