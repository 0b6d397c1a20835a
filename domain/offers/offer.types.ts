/**
 * The offer aggregate (stream `proposal-<uuid>`): one carrier organization's offer on one load
 * (docs/domain.md "Proposal"). The stream id is derived from the load and the carrier organization
 * (`offerIdFor`), so a carrier has one offer per load and a second submit revises it.
 * Types only; rules are in `offer.decide.ts`.
 */
import type { GenericStatus } from '../catalog.ts';
import type { AccessorialTerms } from '../loads/terms.ts';
import type { Command, Event } from '../shared/event.ts';

export const offerStream = (offerId: string): string => `proposal-${offerId}`;

/** 10 Submitted Proposal, 11 Pending Acceptance, 5 Accepted, 14 Confirmed, 12 Declined, 7 Canceled. */
export type OfferStatus =
  | typeof GenericStatus.SubmittedProposal
  | typeof GenericStatus.PendingAcceptance
  | typeof GenericStatus.Accepted
  | typeof GenericStatus.Confirmed
  | typeof GenericStatus.Declined
  | typeof GenericStatus.Canceled;

export type DeclineReason = 'shipper' | 'otherAccepted' | 'loadCanceled';

export type ProposalSubmitted = Event<
  'ProposalSubmitted',
  {
    proposalId: string;
    loadId: string;
    loadGuid: string;
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    submittedBy: string;
    price: number;
    message: string;
    eldTruckName: string | null;
    submittedAt: string;
    /** The offer's own accessorial terms; absent: the load's. */
    terms?: AccessorialTerms;
  }
>;
export type ProposalRevised = Event<
  'ProposalRevised',
  {
    proposalId: string;
    price: number;
    message: string;
    eldTruckName: string | null;
    revisedBy: string;
    revisedAt: string;
    /** The offer's own accessorial terms; absent: the load's. */
    terms?: AccessorialTerms;
  }
>;
export type ProposalCountered = Event<
  'ProposalCountered',
  {
    proposalId: string;
    price: number;
    message: string;
    counteredBy: string;
    counteredAt: string;
    /** The shipper's answer to the offer's terms; absent: the terms stay as offered. */
    terms?: AccessorialTerms;
  }
>;
export type CounterAccepted = Event<
  'CounterAccepted',
  {
    proposalId: string;
    price: number;
    acceptedBy: string;
    acceptedAt: string;
    /** The counter's terms, now the offer's. */
    terms?: AccessorialTerms;
  }
>;
export type ProposalAccepted = Event<
  'ProposalAccepted',
  {
    proposalId: string;
    loadId: string;
    tourId: string;
    price: number;
    acceptedBy: string;
    acceptedAt: string;
  }
>;
export type ProposalDeclined = Event<
  'ProposalDeclined',
  {
    proposalId: string;
    reason: DeclineReason;
    message: string;
    declinedBy: string | null;
    declinedAt: string;
  }
>;
export type ProposalCanceled = Event<
  'ProposalCanceled',
  { proposalId: string; message: string; canceledBy: string; canceledAt: string }
>;
export type ContractUploaded = Event<
  'ContractUploaded',
  {
    proposalId: string;
    loadId: string;
    contractFileId: string;
    uploadedBy: string;
    uploadedAt: string;
  }
>;

export type OfferEvent =
  | ProposalSubmitted
  | ProposalRevised
  | ProposalCountered
  | CounterAccepted
  | ProposalAccepted
  | ProposalDeclined
  | ProposalCanceled
  | ContractUploaded;

/**
 * `by` is the acting organization (null for a Superadmin); an offer the acting organization is
 * not a party of is "not found". `loadOpen`: the load is Created and its offer has not expired,
 * as read by the command handler from the load stream.
 */
export type SubmitOffer = Command<
  'SubmitOffer',
  {
    proposalId: string;
    loadId: string;
    loadGuid: string;
    loadOpen: boolean;
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    userId: string;
    price: number;
    message: string;
    eldTruckName: string | null;
    terms?: AccessorialTerms;
    now: string;
  }
>;
export type CounterOffer = Command<
  'CounterOffer',
  {
    proposalId: string;
    by: string | null;
    userId: string;
    loadOpen: boolean;
    price: number;
    message: string;
    terms?: AccessorialTerms;
    now: string;
  }
>;
export type AcceptCounter = Command<
  'AcceptCounter',
  { proposalId: string; by: string | null; userId: string; loadOpen: boolean; now: string }
>;
/** Issued after the load stream recorded the acceptance (LoadProposalAccepted). */
export type AcceptOffer = Command<
  'AcceptOffer',
  { proposalId: string; by: string | null; userId: string; tourId: string; now: string }
>;
/**
 * Issued after the load stream recorded a Book Now booking: the carrier's offer at the Book Now
 * price (a fresh one, or its open offer revised to that price), accepted at once.
 */
export type BookOffer = Command<
  'BookOffer',
  {
    proposalId: string;
    loadId: string;
    loadGuid: string;
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    userId: string;
    price: number;
    tourId: string;
    now: string;
  }
>;
/** `by` null and a reason other than 'shipper' for the automatic declines; those do nothing on a closed offer. */
export type DeclineOffer = Command<
  'DeclineOffer',
  {
    proposalId: string;
    by: string | null;
    userId: string | null;
    reason: DeclineReason;
    message: string;
    now: string;
  }
>;
export type WithdrawOffer = Command<
  'WithdrawOffer',
  { proposalId: string; by: string | null; userId: string; message: string; now: string }
>;
export type UploadContract = Command<
  'UploadContract',
  { proposalId: string; by: string | null; userId: string; contractFileId: string; now: string }
>;

export type OfferCommand =
  | SubmitOffer
  | CounterOffer
  | AcceptCounter
  | AcceptOffer
  | BookOffer
  | DeclineOffer
  | WithdrawOffer
  | UploadContract;

export type SubmittedOffer = {
  exists: true;
  proposalId: string;
  loadId: string;
  loadGuid: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  submittedBy: string;
  status: OfferStatus;
  price: number;
  /** The shipper's counter price while Pending Acceptance, else null. */
  counterPrice: number | null;
  /** The offer's own accessorial terms; absent or null: the load's. */
  terms?: AccessorialTerms | null;
  /** The terms of the shipper's counter while Pending Acceptance, if it named any. */
  counterTerms?: AccessorialTerms | null;
  message: string;
  eldTruckName: string | null;
  tourId: string | null;
  contractFileId: string | null;
  submittedAt: string;
  updatedAt: string;
};
export type Offer = { exists: false } | SubmittedOffer;

/**
 * A rate confirmation was generated for an accepted offer (stream `rateconfirmation-<proposalId>`):
 * the SHA-256 of the exact bytes handed out, so a signed copy can be checked against it.
 */
export const rateConfirmationStream = (offerId: string): string => `rateconfirmation-${offerId}`;
export type RateConfirmationIssued = Event<
  'RateConfirmationIssued',
  {
    proposalId: string;
    loadId: string;
    sha256: string;
    bytes: number;
    issuedTo: string;
    issuedAt: string;
  }
>;
