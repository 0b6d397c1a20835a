/**
 * Accessorial claims of one tour (stream `accessorials-<tourId>`): detention, TONU, layover and
 * lumper (docs/domain.md "Accessorial terms and claims"). Each claim's amount is computed here from
 * the agreed terms and the recorded evidence only; the parties approve, dispute, answer and note it,
 * the Superadmin settles a dispute, and silence approves it once its window closes. Types only; rules
 * are in `claim.decide.ts`, the arithmetic in `claim.rules.ts`.
 */
import type { AccessorialTerms } from '../loads/terms.ts';
import type { Command, Event } from '../shared/event.ts';

export const claimsStream = (tourId: string): string => `accessorials-${tourId}`;

export type ClaimKind = 'detention' | 'tonu' | 'layover' | 'lumper';
export type ClaimStatus = 'claimed' | 'approved' | 'disputed' | 'answered' | 'settled';
export type StopKind = 'pickup' | 'delivery';

/** A position recorded inside the stop's geofence while the truck was there. */
export type InsidePosition = { latitude: number; longitude: number; at: string };

/** What the platform recorded; never changed by a party. */
export type ClaimEvidence = {
  arrivedAt: string | null;
  leftAt: string | null;
  appointmentAt: string | null;
  positionsInside: InsidePosition[];
  receiptFileId?: string;
  /** TONU: when the shipper cancelled, and what the carrier had done by then. */
  canceledAt?: string;
  committed?: 'confirmed' | 'dispatched';
};

export type AccessorialClaimed = Event<
  'AccessorialClaimed',
  {
    tourId: string;
    loadId: string;
    claimId: string;
    kind: ClaimKind;
    /** The stop's index in route order; null for TONU. */
    stopIndex: number | null;
    /** Billable minutes (detention), minutes held (layover); 0 otherwise. */
    minutes: number;
    /** Layover: the days held. */
    days?: number;
    amount: number;
    evidence: ClaimEvidence;
    /** The terms the amount was computed from. */
    terms: AccessorialTerms;
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    /** The driver who uploaded a lumper receipt; null when the platform produced the claim. */
    claimedBy: string | null;
    claimedAt: string;
    /** When silence approves it: claimedAt plus the terms' dispute window. */
    dueAt: string;
  }
>;
/** `approvedBy` null and `bySilence` true: approved by the passing of time, not by a person. */
export type AccessorialApproved = Event<
  'AccessorialApproved',
  {
    tourId: string;
    claimId: string;
    approvedBy: string | null;
    bySilence: boolean;
    amount: number;
    approvedAt: string;
  }
>;
export type AccessorialDisputed = Event<
  'AccessorialDisputed',
  { tourId: string; claimId: string; reason: string; disputedBy: string; disputedAt: string }
>;
export type AccessorialAnswered = Event<
  'AccessorialAnswered',
  { tourId: string; claimId: string; text: string; answeredBy: string; answeredAt: string }
>;
export type AccessorialNoted = Event<
  'AccessorialNoted',
  { tourId: string; claimId: string; note: string; notedBy: string; notedAt: string }
>;
export type AccessorialSettled = Event<
  'AccessorialSettled',
  {
    tourId: string;
    claimId: string;
    amount: number;
    note: string;
    settledBy: string;
    settledAt: string;
  }
>;

export type ClaimEvent =
  | AccessorialClaimed
  | AccessorialApproved
  | AccessorialDisputed
  | AccessorialAnswered
  | AccessorialNoted
  | AccessorialSettled;

/** The tour's facts a claim is produced from. */
export type ClaimContext = {
  tourId: string;
  loadId: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  /** The agreed terms; null: none were agreed, so nothing can be claimed. */
  terms: AccessorialTerms | null;
};

export type ClaimDetention = Command<
  'ClaimDetention',
  ClaimContext & {
    claimId: string;
    stopIndex: number;
    stopKind: StopKind;
    evidence: ClaimEvidence;
    now: string;
  }
>;
export type ClaimLayover = Command<
  'ClaimLayover',
  ClaimContext & {
    claimId: string;
    stopIndex: number;
    evidence: ClaimEvidence;
    /** The stop's time zone (IANA): a night is a midnight there. */
    timezone: string;
    now: string;
  }
>;
export type ClaimTonu = Command<
  'ClaimTonu',
  ClaimContext & {
    claimId: string;
    /** What the carrier had done when the shipper cancelled: null, nothing yet (no TONU). */
    committed: 'confirmed' | 'dispatched' | null;
    canceledAt: string;
    now: string;
  }
>;
export type ClaimLumper = Command<
  'ClaimLumper',
  ClaimContext & {
    claimId: string;
    stopIndex: number;
    amount: number;
    receiptFileId: string;
    userId: string;
    now: string;
  }
>;
/** `userId` null with `bySilence`: the scheduler, once the window closed. */
export type ApproveClaim = Command<
  'ApproveClaim',
  { tourId: string; claimId: string; userId: string | null; bySilence: boolean; now: string }
>;
export type DisputeClaim = Command<
  'DisputeClaim',
  { tourId: string; claimId: string; userId: string; reason: string; now: string }
>;
export type AnswerClaim = Command<
  'AnswerClaim',
  { tourId: string; claimId: string; userId: string; text: string; now: string }
>;
export type NoteClaim = Command<
  'NoteClaim',
  { tourId: string; claimId: string; userId: string; note: string; now: string }
>;
export type SettleClaim = Command<
  'SettleClaim',
  { tourId: string; claimId: string; userId: string; amount: number; note: string; now: string }
>;

export type ClaimCommand =
  | ClaimDetention
  | ClaimLayover
  | ClaimTonu
  | ClaimLumper
  | ApproveClaim
  | DisputeClaim
  | AnswerClaim
  | NoteClaim
  | SettleClaim;

export type Claim = {
  claimId: string;
  kind: ClaimKind;
  stopIndex: number | null;
  minutes: number;
  amount: number;
  status: ClaimStatus;
  evidence: ClaimEvidence;
  dueAt: string;
  claimedAt: string;
  note: string | null;
  disputeReason: string | null;
  answer: string | null;
  /** 'shipper' when a person approved it, 'silence' when the window closed unanswered. */
  approvedBy: 'shipper' | 'silence' | null;
  settledAmount: number | null;
  settlementNote: string | null;
};

export type TourClaims = { claims: Claim[] };
