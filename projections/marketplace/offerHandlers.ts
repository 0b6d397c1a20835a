import { GenericStatus } from '../../domain/catalog.ts';
import type {
  ContractUploaded,
  CounterAccepted,
  ProposalAccepted,
  ProposalCanceled,
  ProposalCountered,
  ProposalDeclined,
  ProposalRevised,
  ProposalSubmitted,
} from '../../domain/offers/offer.types.ts';
import type { Handler, MarketplacePage, OfferState } from './marketplacePage.ts';

/** Changes an offer; its load's offer counts are recounted at the end of the page. */
const changeOffer = (page: MarketplacePage, offerId: string, change: Partial<OfferState>) => {
  const row = page.offers.update(offerId, change);
  if (row) page.recount.add(row.load_id);
};

/** A new offer, or one submitted again (after a decline, say): open at its price, no counter. */
const offerSubmitted = (page: MarketplacePage, d: ProposalSubmitted['data']) => {
  const submitted = {
    submitted_by: d.submittedBy,
    status: GenericStatus.SubmittedProposal,
    price: d.price,
    counter_price: null,
    terms: d.terms ?? null,
    counter_terms: null,
    message: d.message,
    eld_truck_name: d.eldTruckName,
    submitted_at: d.submittedAt,
    updated_at: d.submittedAt,
  };
  if (!page.offers.update(d.proposalId, submitted)) {
    page.offers.insert({
      id: d.proposalId,
      load_id: d.loadId,
      load_guid: d.loadGuid,
      shipper_organization_id: d.shipperOrganizationId,
      carrier_organization_id: d.carrierOrganizationId,
      tour_id: null,
      contract_file_id: null,
      ...submitted,
    });
  }
  page.recount.add(d.loadId);
};

/** The carrier's new price and terms (none: the load's): open again, any counter dropped. */
const offerRevised = (page: MarketplacePage, d: ProposalRevised['data']) =>
  changeOffer(page, d.proposalId, {
    status: GenericStatus.SubmittedProposal,
    price: d.price,
    counter_price: null,
    terms: d.terms ?? null,
    counter_terms: null,
    message: d.message,
    eld_truck_name: d.eldTruckName,
    submitted_at: d.revisedAt,
    updated_at: d.revisedAt,
  });

/** The shipper's counter price and terms (if it named any), waiting for the carrier. */
const offerCountered = (page: MarketplacePage, d: ProposalCountered['data']) =>
  changeOffer(page, d.proposalId, {
    status: GenericStatus.PendingAcceptance,
    counter_price: d.price,
    counter_terms: d.terms ?? null,
    updated_at: d.counteredAt,
  });

/** The carrier took the counter: its price, and its terms if it named any, are the offer's now. */
const counterAccepted = (page: MarketplacePage, d: CounterAccepted['data']) =>
  changeOffer(page, d.proposalId, {
    status: GenericStatus.SubmittedProposal,
    price: d.price,
    counter_price: null,
    ...(d.terms ? { terms: d.terms } : {}),
    counter_terms: null,
    updated_at: d.acceptedAt,
  });

const offerAccepted = (page: MarketplacePage, d: ProposalAccepted['data']) =>
  changeOffer(page, d.proposalId, {
    status: GenericStatus.Accepted,
    price: d.price,
    tour_id: d.tourId,
    updated_at: d.acceptedAt,
  });

const offerDeclined = (page: MarketplacePage, d: ProposalDeclined['data']) =>
  changeOffer(page, d.proposalId, { status: GenericStatus.Declined, updated_at: d.declinedAt });

const offerCanceled = (page: MarketplacePage, d: ProposalCanceled['data']) =>
  changeOffer(page, d.proposalId, { status: GenericStatus.Canceled, updated_at: d.canceledAt });

/** The carrier's signed rate confirmation: the offer is Confirmed. */
const contractUploaded = (page: MarketplacePage, d: ContractUploaded['data']) =>
  changeOffer(page, d.proposalId, {
    status: GenericStatus.Confirmed,
    contract_file_id: d.contractFileId,
    updated_at: d.uploadedAt,
  });

const ofOffer = (d: { proposalId: string }) => ({ offer: d.proposalId });

/** The offer events the marketplace read model takes. */
export const offerHandlers = {
  ProposalSubmitted: {
    touches: ofOffer,
    fold: offerSubmitted,
  } satisfies Handler<ProposalSubmitted>,
  ProposalRevised: { touches: ofOffer, fold: offerRevised } satisfies Handler<ProposalRevised>,
  ProposalCountered: {
    touches: ofOffer,
    fold: offerCountered,
  } satisfies Handler<ProposalCountered>,
  CounterAccepted: { touches: ofOffer, fold: counterAccepted } satisfies Handler<CounterAccepted>,
  ProposalAccepted: {
    touches: ofOffer,
    fold: offerAccepted,
  } satisfies Handler<ProposalAccepted>,
  ProposalDeclined: {
    touches: ofOffer,
    fold: offerDeclined,
  } satisfies Handler<ProposalDeclined>,
  ProposalCanceled: {
    touches: ofOffer,
    fold: offerCanceled,
  } satisfies Handler<ProposalCanceled>,
  ContractUploaded: {
    touches: ofOffer,
    fold: contractUploaded,
  } satisfies Handler<ContractUploaded>,
};
