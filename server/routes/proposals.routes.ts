import type { App } from '../http/routeContext.ts';

export {
  OfferBody,
  PRICE_MAX,
  PRICE_MESSAGE,
  PRICE_TOO_HIGH_MESSAGE,
  ProposalChangeBody,
} from '../../domain/contracts/proposals.contract.ts';

import { proposalBoardRoutes } from './proposals.board.routes.ts';
import { proposalCommandRoutes } from './proposals.commands.routes.ts';
import { proposalDocumentRoutes } from './proposals.documents.routes.ts';

/** Offers: the carriers' bids on a load, the shipper's answers, the contract and the rate confirmation. */
export async function proposalsRoutes(app: App) {
  proposalBoardRoutes(app);
  proposalCommandRoutes(app);
  proposalDocumentRoutes(app);
}
