/**
 * The commands of a carrier's offer (stream `proposal-<id>`), of a load's list of offers
 * (`loadoffers-<loadId>`) and of the rate confirmations handed out (`rateconfirmation-<id>`):
 * submit or revise (`offerSubmission.ts`), counter, accept a counter, decline, withdraw
 * (`offerAnswers.ts`), and the offer's side of an acceptance and of a contract, run by
 * `shipments.ts` (`offerAcceptance.ts`). These modules are the only writers of these streams.
 */
import { createOfferAcceptanceCommands } from './offerAcceptance.ts';
import type { OfferCommandDeps } from './offerAccess.ts';
import { createOfferAnswerCommands } from './offerAnswers.ts';
import { createOfferSubmissionCommands } from './offerSubmission.ts';

export function createOfferCommands(deps: OfferCommandDeps) {
  return {
    ...createOfferAnswerCommands(deps),
    ...createOfferSubmissionCommands(deps),
    ...createOfferAcceptanceCommands(deps),
  };
}
export type OfferCommands = ReturnType<typeof createOfferCommands>;
