import { apiGet, apiPost } from '../../api/http.ts';

/** The kinds of accessorial claim. */
export const claimKinds = ['detention', 'tonu', 'layover', 'lumper'] as const;
export type ClaimKind = (typeof claimKinds)[number];
export const claimStatuses = ['claimed', 'approved', 'disputed', 'answered', 'settled'] as const;
export type ClaimStatus = (typeof claimStatuses)[number];

/** What the platform recorded for a claim: no party may change it. */
export interface ClaimEvidence {
  arrivedAt: string | null;
  leftAt: string | null;
  appointmentAt: string | null;
  /** The truck's positions recorded inside the stop's geofence between the arrival and the departure. */
  positionsInside: { latitude: number; longitude: number; at: string }[];
  /** The lumper's receipt (a stored file). */
  receiptFileId?: string | null;
}

/** One claim of GET tours/{id}/claims. */
export interface Claim {
  id: string;
  kind: ClaimKind;
  /** The stop's place in the tour (0 the first); null for a claim of the whole tour (TONU). */
  stopIndex: number | null;
  minutes: number | null;
  amount: number;
  status: ClaimStatus;
  evidence: ClaimEvidence;
  note: string | null;
  /** When silence approves it (the terms' window after the claim). */
  dueAt: string | null;
  /** The shipper's reason, once disputed. */
  disputeReason?: string | null;
  /** The carrier's answer to the dispute. */
  answer?: string | null;
  /** What the Superadmin settled it at, and why. */
  settledAmount?: number | null;
  settlementNote?: string | null;
}

const tourPath = (tourId: string) => `/tours/${encodeURIComponent(tourId)}`;
const claimPath = (tourId: string, claimId: string, action: string) =>
  `${tourPath(tourId)}/claims/${encodeURIComponent(claimId)}/${action}`;

export const claimsApi = {
  list: (tourId: string) => apiGet<Claim[]>(`${tourPath(tourId)}/claims`),
  approve: (tourId: string, claimId: string) =>
    apiPost<Claim>(claimPath(tourId, claimId, 'approve'), {}),
  dispute: (tourId: string, claimId: string, reason: string) =>
    apiPost<Claim>(claimPath(tourId, claimId, 'dispute'), { reason }),
  answer: (tourId: string, claimId: string, text: string) =>
    apiPost<Claim>(claimPath(tourId, claimId, 'answer'), { text }),
  settle: (tourId: string, claimId: string, amount: number, note: string) =>
    apiPost<Claim>(claimPath(tourId, claimId, 'settle'), { amount, note }),
  /** The assigned driver's lumper receipt: multipart `receipt` (the photo) and `data` `{amount}`. */
  lumper: (tourId: string, receipt: Blob, amount: number) => {
    const form = new FormData();
    form.append('data', JSON.stringify({ amount }));
    form.append('receipt', receipt, 'receipt.jpg');
    return apiPost<Claim>(`${tourPath(tourId)}/lumper`, form);
  },
};

/** Who looks at a claim, for its actions: the shipper's, the carrier's, a Superadmin, a driver. */
export type ClaimViewer = 'shipper' | 'carrier' | 'admin' | 'driver' | 'none';
export type ClaimAction = 'approve' | 'dispute' | 'answer' | 'settle';

/**
 * What a viewer may do with a claim now: the shipper approves or disputes a new claim (and may
 * approve one the carrier answered); the carrier answers a dispute; a Superadmin settles a
 * disputed or answered claim. Approved and settled claims are closed.
 */
export function claimActions(viewer: ClaimViewer, status: ClaimStatus): ClaimAction[] {
  switch (viewer) {
    case 'shipper':
      return status === 'claimed'
        ? ['approve', 'dispute']
        : status === 'answered'
          ? ['approve']
          : [];
    case 'carrier':
      return status === 'disputed' ? ['answer'] : [];
    case 'admin':
      return status === 'disputed' || status === 'answered' ? ['settle'] : [];
    default:
      return [];
  }
}

/** The viewer a signed-in user is, from its role names. */
export function claimViewerOf(roles: readonly string[]): ClaimViewer {
  if (roles.includes('Superadmin')) return 'admin';
  if (roles.includes('Shipper')) return 'shipper';
  if (roles.includes('Carrier')) return 'carrier';
  if (roles.includes('Driver')) return 'driver';
  return 'none';
}
