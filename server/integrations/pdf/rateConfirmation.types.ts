import type { AccessorialTerms } from '../../../domain/loads/terms.ts';

/** What a rate confirmation shows: the input of `renderRateConfirmation`. */
export type RateConfirmationParty = {
  name: string;
  address: string;
  person: string;
  email: string;
  phone: string;
  mcNumber?: number | null;
  dotNumber?: number | null;
};
export type RateConfirmationStop = {
  locationType: 1 | 2 | 3 | 4;
  typeName: string;
  name: string;
  address: string;
  contactName: string | null;
  contactPhone: string | null;
  number: string | null;
  /** ISO 8601 instants, shown on the wall clock of `timezone` (an IANA zone such as America/Chicago). */
  windowStart: string;
  windowEnd: string | null;
  timezone: string;
};
export type RateConfirmationInput = {
  loadGuid: string;
  loadId: string;
  proposalId: string;
  /** ISO 8601 instant; also the document's creation date. */
  issuedAt: string;
  shipper: RateConfirmationParty;
  carrier: RateConfirmationParty;
  /** In route order. */
  stops: RateConfirmationStop[];
  equipment: string[];
  accessories: string[];
  loadType: string;
  weight: number;
  commodity: string;
  refNumber: string;
  description: string;
  /** US dollars. */
  price: number;
  eldTruckName: string | null;
  /** The agreed accessorial terms; null: none were agreed (printed as such). Absent: not printed. */
  accessorialTerms?: AccessorialTerms | null;
  /** The shipper's payment terms, net days from the invoice's submission. Absent: not printed. */
  paymentTermsDays?: number;
  shipperSignature: { bytes: Uint8Array; mimeType: 'image/png' | 'image/jpeg' } | null;
};
