/** A carrier's offer on a load for read model specs: submitted, revised, countered, accepted or not. */
import {
  offerStream,
  type ContractUploaded,
  type CounterAccepted,
  type ProposalAccepted,
  type ProposalCanceled,
  type ProposalCountered,
  type ProposalDeclined,
  type ProposalRevised,
  type ProposalSubmitted,
} from '../../domain/offers/offer.types.ts';
import { carrier, carrierUser, on, shipper, shipperUser } from './trade.ts';

type At = { at: string };

export const offerSubmitted = (
  offerId: string,
  {
    at,
    loadId,
    price,
    by = carrier,
    message = 'Can pick up on time',
  }: At & { loadId: string; price: number; by?: string; message?: string },
) =>
  on<ProposalSubmitted>(offerStream(offerId), {
    type: 'ProposalSubmitted',
    data: {
      proposalId: offerId,
      loadId,
      loadGuid: 'L-000001',
      shipperOrganizationId: shipper,
      carrierOrganizationId: by,
      submittedBy: carrierUser,
      price,
      message,
      eldTruckName: null,
      submittedAt: at,
    },
  });

export const offerRevised = (
  offerId: string,
  { at, price, message = 'Revised' }: At & { price: number; message?: string },
) =>
  on<ProposalRevised>(offerStream(offerId), {
    type: 'ProposalRevised',
    data: {
      proposalId: offerId,
      price,
      message,
      eldTruckName: 'Truck 7',
      revisedBy: carrierUser,
      revisedAt: at,
    },
  });

export const offerCountered = (offerId: string, { at, price }: At & { price: number }) =>
  on<ProposalCountered>(offerStream(offerId), {
    type: 'ProposalCountered',
    data: {
      proposalId: offerId,
      price,
      message: 'Can you do this?',
      counteredBy: shipperUser,
      counteredAt: at,
    },
  });

export const counterAccepted = (offerId: string, { at, price }: At & { price: number }) =>
  on<CounterAccepted>(offerStream(offerId), {
    type: 'CounterAccepted',
    data: { proposalId: offerId, price, acceptedBy: carrierUser, acceptedAt: at },
  });

export const offerAccepted = (
  offerId: string,
  { at, loadId, tourId, price }: At & { loadId: string; tourId: string; price: number },
) =>
  on<ProposalAccepted>(offerStream(offerId), {
    type: 'ProposalAccepted',
    data: { proposalId: offerId, loadId, tourId, price, acceptedBy: shipperUser, acceptedAt: at },
  });

export const offerDeclined = (offerId: string, { at }: At) =>
  on<ProposalDeclined>(offerStream(offerId), {
    type: 'ProposalDeclined',
    data: {
      proposalId: offerId,
      reason: 'shipper',
      message: '',
      declinedBy: shipperUser,
      declinedAt: at,
    },
  });

export const offerCanceled = (offerId: string, { at }: At) =>
  on<ProposalCanceled>(offerStream(offerId), {
    type: 'ProposalCanceled',
    data: {
      proposalId: offerId,
      message: 'Truck broke down',
      canceledBy: carrierUser,
      canceledAt: at,
    },
  });

export const contractUploaded = (
  offerId: string,
  { at, loadId, contractFileId }: At & { loadId: string; contractFileId: string },
) =>
  on<ContractUploaded>(offerStream(offerId), {
    type: 'ContractUploaded',
    data: { proposalId: offerId, loadId, contractFileId, uploadedBy: carrierUser, uploadedAt: at },
  });
