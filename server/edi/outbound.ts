/**
 * What we send a partner about its tenders, as transaction sets: the 990 (the tender booked or
 * declined), the 214 (where the shipment stands: X3 arrived at pickup, AF departed pickup, X1
 * arrived at delivery, D1 delivered) and the 210 (the carrier's invoice). Times are sent in UTC
 * (time code UT); amounts in cents (X12's implied two decimals). The SCAC we sign with is the
 * first four characters of our interchange id.
 */
import type { EdiSeparators } from '../../domain/contracts/edi.contract.ts';
import { clean, type OutgoingTransaction, x12DateTime } from './x12.ts';

export const scacOf = (ourId: string) => ourId.replace(/[^A-Za-z0-9]/g, '').slice(0, 4) || 'FRMK';

export type ShipmentStatusCode = 'X3' | 'AF' | 'X1' | 'D1';

const cents = (amount: number) => String(Math.round(amount * 100));

export function tenderResponse990(options: {
  scac: string;
  shipmentId: string;
  loadGuid: string;
  accepted: boolean;
  at: Date;
  reason?: string;
  separators: EdiSeparators;
}): OutgoingTransaction {
  const { date } = x12DateTime(options.at);
  const segments: [string, string[]][] = [
    ['B1', [options.scac, options.shipmentId, date, options.accepted ? 'A' : 'D']],
    ['N9', ['CN', options.loadGuid]],
  ];
  if (!options.accepted && options.reason)
    segments.push(['K1', [clean(options.reason, options.separators, 30)]]);
  return { type: '990', segments };
}

export function shipmentStatus214(options: {
  scac: string;
  shipmentId: string;
  loadGuid: string;
  status: ShipmentStatusCode;
  at: Date;
  stop: { sequence: number; city: string | null; state: string | null };
  separators: EdiSeparators;
}): OutgoingTransaction {
  const { date, time } = x12DateTime(options.at);
  const { separators } = options;
  return {
    type: '214',
    segments: [
      ['B10', [options.loadGuid, options.shipmentId, options.scac]],
      ['LX', ['1']],
      ['AT7', [options.status, 'NS', '', '', date, time, 'UT']],
      [
        'MS1',
        [clean(options.stop.city, separators, 30), clean(options.stop.state, separators, 2), 'US'],
      ],
      ['L11', [String(options.stop.sequence), 'QN']],
    ],
  };
}

export type InvoiceForEdi = {
  number: string;
  loadGuid: string;
  shipmentId: string;
  submittedAt: string;
  dueAt: string;
  total: number;
  lines: { kind: string; description: string; amount: number }[];
  carrierName: string;
  shipperName: string;
  reference: string | null;
};

const CHARGE_CODES: Record<string, string> = {
  linehaul: '400',
  detention: 'DET',
  layover: 'LAY',
  tonu: 'TNU',
  lumper: 'LUM',
};

export function freightInvoice210(options: {
  scac: string;
  invoice: InvoiceForEdi;
  separators: EdiSeparators;
}): OutgoingTransaction {
  const { invoice, separators } = options;
  const submitted = x12DateTime(new Date(invoice.submittedAt)).date;
  const due = x12DateTime(new Date(invoice.dueAt)).date;
  const segments: [string, string[]][] = [
    [
      'B3',
      [
        '',
        clean(invoice.number, separators, 22),
        clean(invoice.shipmentId, separators, 30),
        'PP',
        '',
        submitted,
        cents(invoice.total),
        '',
        '',
        '',
        options.scac,
        due,
      ],
    ],
    ['C3', ['USD']],
    ['N9', ['CN', invoice.loadGuid]],
  ];
  if (invoice.reference) segments.push(['N9', ['IK', clean(invoice.reference, separators, 30)]]);
  segments.push(['N1', ['SH', clean(invoice.shipperName, separators)]]);
  segments.push(['N1', ['CA', clean(invoice.carrierName, separators)]]);
  invoice.lines.forEach((line, index) => {
    segments.push(['LX', [String(index + 1)]]);
    segments.push([
      'L1',
      [
        String(index + 1),
        '',
        '',
        cents(line.amount),
        '',
        '',
        '',
        CHARGE_CODES[line.kind] ?? 'ZZZ',
        '',
        '',
        '',
        clean(line.description, separators, 25),
      ],
    ]);
  });
  segments.push(['L3', ['', '', '', '', cents(invoice.total)]]);
  return { type: '210', segments };
}
