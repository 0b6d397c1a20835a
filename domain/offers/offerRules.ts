/** What every offer rule shares: the status name, which statuses are still open, the price check. */
import { genericStatuses, GenericStatus, nameById } from '../catalog.ts';
import { IllegalStateError, ValidationError } from '../shared/errors.ts';
import type { OfferStatus, SubmittedOffer } from './offer.types.ts';

export const offerStatusName = (status: OfferStatus): string =>
  nameById(genericStatuses, status) ?? String(status);

export const isOpen = (status: OfferStatus) =>
  status === GenericStatus.SubmittedProposal || status === GenericStatus.PendingAcceptance;

export const refuse = (state: SubmittedOffer, action: string): never => {
  throw new IllegalStateError(
    `An offer that is ${offerStatusName(state.status)} cannot be ${action}`,
  );
};

export const LOAD_CLOSED = 'This load is no longer open for offers';

/** A price in dollars and cents, above zero. */
export const checkPrice = (price: number) => {
  const cents = price * 100;
  if (!Number.isFinite(price) || price <= 0 || Math.abs(cents - Math.round(cents)) > 1e-6) {
    throw ValidationError.field('price', 'Please enter a price greater than 0');
  }
};
