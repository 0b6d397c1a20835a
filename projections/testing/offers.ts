/** A carrier's offer on a load for read model specs: submitted, revised, countered, accepted or not. */
import {
  proposalStream,
  type ContractUploaded,
  type CounterAccepted,
  type ProposalAccepted,
  type ProposalCanceled,
  type ProposalCountered,
  type ProposalDeclined,
  type ProposalRevised,
  type ProposalSubmitted,
} from '../../domain/proposals/proposal.types.ts';
import { carrier, carrierUser, on, shipper, shipperUser } from './trade.ts';

type At = { at: string };

export const offerSubmitted = (
  proposalId: string,
  {
    at,
    loadId,
    price,
    by = carrier,
    message = 'Can pick up on time',
  }: At & { loadId: string; price: number; by?: string; message?: string },
) =>
  on<ProposalSubmitted>(proposalStream(proposalId), {
    type: 'ProposalSubmitted',
    data: {
      proposalId,
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
  proposalId: string,
  { at, price, message = 'Revised' }: At & { price: number; message?: string },
) =>
  on<ProposalRevised>(proposalStream(proposalId), {
    type: 'ProposalRevised',
    data: {
      proposalId,
      price,
      message,
      eldTruckName: 'Truck 7',
      revisedBy: carrierUser,
      revisedAt: at,
    },
  });

export const offerCountered = (proposalId: string, { at, price }: At & { price: number }) =>
  on<ProposalCountered>(proposalStream(proposalId), {
    type: 'ProposalCountered',
    data: {
      proposalId,
      price,
      message: 'Can you do this?',
      counteredBy: shipperUser,
      counteredAt: at,
    },
  });

export const counterAccepted = (proposalId: string, { at, price }: At & { price: number }) =>
  on<CounterAccepted>(proposalStream(proposalId), {
    type: 'CounterAccepted',
    data: { proposalId, price, acceptedBy: carrierUser, acceptedAt: at },
  });

export const offerAccepted = (
  proposalId: string,
  { at, loadId, tourId, price }: At & { loadId: string; tourId: string; price: number },
) =>
  on<ProposalAccepted>(proposalStream(proposalId), {
    type: 'ProposalAccepted',
    data: { proposalId, loadId, tourId, price, acceptedBy: shipperUser, acceptedAt: at },
  });

export const offerDeclined = (proposalId: string, { at }: At) =>
  on<ProposalDeclined>(proposalStream(proposalId), {
    type: 'ProposalDeclined',
    data: { proposalId, reason: 'shipper', message: '', declinedBy: shipperUser, declinedAt: at },
  });

export const offerCanceled = (proposalId: string, { at }: At) =>
  on<ProposalCanceled>(proposalStream(proposalId), {
    type: 'ProposalCanceled',
    data: { proposalId, message: 'Truck broke down', canceledBy: carrierUser, canceledAt: at },
  });

export const contractUploaded = (
  proposalId: string,
  { at, loadId, contractFileId }: At & { loadId: string; contractFileId: string },
) =>
  on<ContractUploaded>(proposalStream(proposalId), {
    type: 'ContractUploaded',
    data: { proposalId, loadId, contractFileId, uploadedBy: carrierUser, uploadedAt: at },
  });
