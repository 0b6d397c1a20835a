/**
 * The rules of a tour's accessorial claims (docs/domain.md "Accessorial terms and claims"): a claim
 * is produced from the agreed terms and the recorded evidence (its amount computed here, never
 * typed by a party); once per stop and kind; the shipper approves or disputes it within the window,
 * silence approves it after; the carrier answers a dispute and may add notes; the Superadmin settles.
 */
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import { detentionOf, dueAtOf, layoverOf, tonuOf } from './claim.rules.ts';
import type {
  AccessorialClaimed,
  Claim,
  ClaimCommand,
  ClaimContext,
  ClaimEvent,
  ClaimEvidence,
  ClaimKind,
  TourClaims,
} from './claim.types.ts';

export const NO_TERMS = 'This load has no accessorial terms: nothing can be claimed';
export const CLAIM_NOT_FOUND = 'Claim not found';
export const LUMPER_PAID_BY_SHIPPER =
  'The terms say the shipper pays the lumper: there is nothing to reimburse';

const evolve = (state: TourClaims, event: ClaimEvent): TourClaims => {
  const update = (claimId: string, change: (claim: Claim) => Claim): TourClaims => ({
    claims: state.claims.map((claim) => (claim.claimId === claimId ? change(claim) : claim)),
  });
  switch (event.type) {
    case 'AccessorialClaimed': {
      const d = event.data;
      return {
        claims: [
          ...state.claims,
          {
            claimId: d.claimId,
            kind: d.kind,
            stopIndex: d.stopIndex,
            minutes: d.minutes,
            amount: d.amount,
            status: 'claimed',
            evidence: d.evidence,
            dueAt: d.dueAt,
            claimedAt: d.claimedAt,
            note: null,
            disputeReason: null,
            answer: null,
            approvedBy: null,
            settledAmount: null,
            settlementNote: null,
          },
        ],
      };
    }
    case 'AccessorialApproved':
      return update(event.data.claimId, (claim) => ({
        ...claim,
        status: 'approved',
        approvedBy: event.data.bySilence ? 'silence' : 'shipper',
      }));
    case 'AccessorialDisputed':
      return update(event.data.claimId, (claim) => ({
        ...claim,
        status: 'disputed',
        disputeReason: event.data.reason,
      }));
    case 'AccessorialAnswered':
      return update(event.data.claimId, (claim) => ({
        ...claim,
        status: 'answered',
        answer: event.data.text,
        note: event.data.text,
      }));
    case 'AccessorialNoted':
      return update(event.data.claimId, (claim) => ({ ...claim, note: event.data.note }));
    case 'AccessorialSettled':
      return update(event.data.claimId, (claim) => ({
        ...claim,
        status: 'settled',
        settledAmount: event.data.amount,
        settlementNote: event.data.note,
      }));
    default:
      return assertNever(event);
  }
};

const claimOf = (state: TourClaims, claimId: string): Claim => {
  const claim = state.claims.find((entry) => entry.claimId === claimId);
  if (!claim) throw new NotFoundError(CLAIM_NOT_FOUND);
  return claim;
};

const alreadyClaimed = (state: TourClaims, kind: ClaimKind, stopIndex: number | null) =>
  state.claims.some((claim) => claim.kind === kind && claim.stopIndex === stopIndex);

const claimed = (
  context: ClaimContext & { claimId: string; now: string },
  claim: {
    kind: ClaimKind;
    stopIndex: number | null;
    minutes: number;
    amount: number;
    evidence: ClaimEvidence;
    days?: number;
  },
  claimedBy: string | null,
): AccessorialClaimed => {
  const terms = context.terms!;
  return {
    type: 'AccessorialClaimed',
    data: {
      tourId: context.tourId,
      loadId: context.loadId,
      claimId: context.claimId,
      kind: claim.kind,
      stopIndex: claim.stopIndex,
      minutes: claim.minutes,
      ...(claim.days === undefined ? {} : { days: claim.days }),
      amount: claim.amount,
      evidence: claim.evidence,
      terms,
      shipperOrganizationId: context.shipperOrganizationId,
      carrierOrganizationId: context.carrierOrganizationId,
      claimedBy,
      claimedAt: context.now,
      dueAt: dueAtOf(terms, context.now),
    },
  };
};

const decide = (command: ClaimCommand, state: TourClaims): ClaimEvent[] => {
  switch (command.type) {
    case 'ClaimDetention': {
      const d = command.data;
      if (!d.terms || alreadyClaimed(state, 'detention', d.stopIndex)) return [];
      if (!d.evidence.leftAt) return [];
      const detention = detentionOf(
        d.terms,
        {
          kind: d.stopKind,
          arrivedAt: d.evidence.arrivedAt,
          appointmentAt: d.evidence.appointmentAt,
        },
        d.evidence.leftAt,
      );
      if (detention.minutes <= 0 || detention.amount <= 0) return [];
      return [
        claimed(
          d,
          {
            kind: 'detention',
            stopIndex: d.stopIndex,
            minutes: detention.minutes,
            amount: detention.amount,
            evidence: d.evidence,
          },
          null,
        ),
      ];
    }
    case 'ClaimLayover': {
      const d = command.data;
      if (!d.terms || !d.evidence.leftAt || alreadyClaimed(state, 'layover', d.stopIndex))
        return [];
      const layover = layoverOf(
        d.terms,
        {
          arrivedAt: d.evidence.arrivedAt,
          appointmentAt: d.evidence.appointmentAt,
          timezone: d.timezone,
        },
        d.evidence.leftAt,
      );
      if (layover.days <= 0 || layover.amount <= 0) return [];
      return [
        claimed(
          d,
          {
            kind: 'layover',
            stopIndex: d.stopIndex,
            minutes: layover.minutes,
            days: layover.days,
            amount: layover.amount,
            evidence: d.evidence,
          },
          null,
        ),
      ];
    }
    case 'ClaimTonu': {
      const d = command.data;
      if (alreadyClaimed(state, 'tonu', null)) return [];
      const amount = tonuOf(d.terms, d.committed);
      if (amount <= 0 || !d.committed) return [];
      return [
        claimed(
          d,
          {
            kind: 'tonu',
            stopIndex: null,
            minutes: 0,
            amount,
            evidence: {
              arrivedAt: null,
              leftAt: null,
              appointmentAt: null,
              positionsInside: [],
              canceledAt: d.canceledAt,
              committed: d.committed,
            },
          },
          null,
        ),
      ];
    }
    case 'ClaimLumper': {
      const d = command.data;
      if (!d.terms) throw new IllegalStateError(NO_TERMS);
      if (d.terms.lumper === 'shipper') throw new IllegalStateError(LUMPER_PAID_BY_SHIPPER);
      if (!(d.amount > 0)) throw ValidationError.field('amount', 'Please enter the receipt amount');
      return [
        claimed(
          d,
          {
            kind: 'lumper',
            stopIndex: d.stopIndex,
            minutes: 0,
            amount: Math.round(d.amount * 100) / 100,
            evidence: {
              arrivedAt: null,
              leftAt: null,
              appointmentAt: null,
              positionsInside: [],
              receiptFileId: d.receiptFileId,
            },
          },
          d.userId,
        ),
      ];
    }
    case 'ApproveClaim': {
      const d = command.data;
      const claim = claimOf(state, d.claimId);
      if (d.bySilence) {
        // The scheduler: only a claim still unanswered once its window closed.
        if (claim.status !== 'claimed' || Date.parse(d.now) < Date.parse(claim.dueAt)) return [];
      } else if (claim.status !== 'claimed' && claim.status !== 'answered') {
        throw new IllegalStateError(`A claim that is ${claim.status} cannot be approved`);
      }
      return [
        {
          type: 'AccessorialApproved',
          data: {
            tourId: d.tourId,
            claimId: claim.claimId,
            approvedBy: d.bySilence ? null : d.userId,
            bySilence: d.bySilence,
            amount: claim.amount,
            approvedAt: d.now,
          },
        },
      ];
    }
    case 'DisputeClaim': {
      const d = command.data;
      const claim = claimOf(state, d.claimId);
      if (claim.status !== 'claimed')
        throw new IllegalStateError(`A claim that is ${claim.status} cannot be disputed`);
      if (Date.parse(d.now) >= Date.parse(claim.dueAt))
        throw new IllegalStateError('The window to dispute this claim has closed');
      const reason = d.reason.trim();
      if (!reason) throw ValidationError.field('reason', 'Please say why you dispute the claim');
      return [
        {
          type: 'AccessorialDisputed',
          data: {
            tourId: d.tourId,
            claimId: claim.claimId,
            reason,
            disputedBy: d.userId,
            disputedAt: d.now,
          },
        },
      ];
    }
    case 'AnswerClaim': {
      const d = command.data;
      const claim = claimOf(state, d.claimId);
      if (claim.status !== 'disputed')
        throw new IllegalStateError(`A claim that is ${claim.status} has no dispute to answer`);
      const text = d.text.trim();
      if (!text) throw ValidationError.field('text', 'Please write your answer');
      return [
        {
          type: 'AccessorialAnswered',
          data: {
            tourId: d.tourId,
            claimId: claim.claimId,
            text,
            answeredBy: d.userId,
            answeredAt: d.now,
          },
        },
      ];
    }
    case 'NoteClaim': {
      const d = command.data;
      const claim = claimOf(state, d.claimId);
      const note = d.note.trim();
      if (!note) throw ValidationError.field('text', 'Please write your note');
      return [
        {
          type: 'AccessorialNoted',
          data: {
            tourId: d.tourId,
            claimId: claim.claimId,
            note,
            notedBy: d.userId,
            notedAt: d.now,
          },
        },
      ];
    }
    case 'SettleClaim': {
      const d = command.data;
      const claim = claimOf(state, d.claimId);
      if (claim.status !== 'disputed' && claim.status !== 'answered')
        throw new IllegalStateError(`A claim that is ${claim.status} has no dispute to settle`);
      if (!(d.amount >= 0) || d.amount > claim.amount)
        throw ValidationError.field(
          'amount',
          `The settled amount is between 0 and the claimed ${claim.amount}`,
        );
      return [
        {
          type: 'AccessorialSettled',
          data: {
            tourId: d.tourId,
            claimId: claim.claimId,
            amount: Math.round(d.amount * 100) / 100,
            note: d.note.trim(),
            settledBy: d.userId,
            settledAt: d.now,
          },
        },
      ];
    }
    default:
      return assertNever(command);
  }
};

export const claimDecider: Decider<TourClaims, ClaimCommand, ClaimEvent> = {
  initialState: () => ({ claims: [] }),
  evolve,
  decide,
};
