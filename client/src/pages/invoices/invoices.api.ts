import type {
  InvoiceAnswer,
  InvoiceRowAnswer,
} from '../../../../domain/contracts/invoices.contract.ts';
import type { TableAnswer } from '../../../../domain/contracts/common.ts';
import { apiGet, apiPost } from '../../api/http.ts';

export type Invoice = InvoiceAnswer;
export type InvoiceRow = InvoiceRowAnswer;
export type InvoiceStatus = InvoiceRow['status'];
export const invoiceStatuses: readonly InvoiceStatus[] = [
  'draft',
  'submitted',
  'approved',
  'disputed',
  'scheduled',
  'paid',
  'received',
  'overdue',
];

/** The socket's invoice events (the webhooks carry the same names, but for drafted and answered). */
export const invoiceEvents = [
  'invoice.drafted',
  'invoice.submitted',
  'invoice.approved',
  'invoice.disputed',
  'invoice.answered',
  'invoice.scheduled',
  'invoice.paid',
  'invoice.received',
] as const;

const path = (id: string, action?: string) =>
  `/invoices/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

export const invoicesApi = {
  list: (status: InvoiceStatus | null) =>
    apiGet<TableAnswer<InvoiceRow>>(
      `/invoices?page=1&pageSize=100${
        status
          ? `&filters=${encodeURIComponent(JSON.stringify([{ name: 'status', value: [status] }]))}`
          : ''
      }`,
    ),
  get: (id: string) => apiGet<Invoice>(path(id)),
  submit: (id: string, reference: string) =>
    apiPost<Invoice>(path(id, 'submit'), reference ? { reference } : {}),
  approve: (id: string) => apiPost<Invoice>(path(id, 'approve'), {}),
  dispute: (id: string, lines: { index: number; reason: string }[]) =>
    apiPost<Invoice>(path(id, 'dispute'), { lines }),
  answer: (id: string, text: string) => apiPost<Invoice>(path(id, 'answer'), { text }),
  schedule: (id: string, date: string) => apiPost<Invoice>(path(id, 'schedule'), { date }),
  pay: (id: string, reference: string, paidAt: string) =>
    apiPost<Invoice>(path(id, 'pay'), { reference, paidAt }),
  receipt: (id: string, received: boolean) => apiPost<Invoice>(path(id, 'receipt'), { received }),
};

export type InvoiceSide = 'carrier' | 'shipper' | 'admin';
export type InvoiceAction =
  | 'submit'
  | 'approve'
  | 'dispute'
  | 'answer'
  | 'schedule'
  | 'pay'
  | 'received'
  | 'notReceived';

/** What each side may do with an invoice in its status (the server decides; this only offers). */
export function invoiceActions(side: InvoiceSide, status: Invoice['stage']): InvoiceAction[] {
  if (side === 'carrier') {
    if (status === 'draft') return ['submit'];
    if (status === 'disputed') return ['answer'];
    if (status === 'paid') return ['received', 'notReceived'];
    return [];
  }
  if (side === 'shipper') {
    if (status === 'submitted') return ['approve', 'dispute'];
    if (status === 'disputed') return ['approve'];
    if (status === 'approved') return ['schedule', 'pay'];
    if (status === 'scheduled') return ['schedule', 'pay'];
    return [];
  }
  return [];
}
