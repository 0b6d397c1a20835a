import t from 'tap';
import { claimsStream, type ClaimEvent } from '../../domain/claims/claim.types.ts';
import { STANDARD_TERMS } from '../../domain/loads/terms.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { carrier, carrierUser, on, shipper, shipperUser } from '../testing/trade.ts';
import { claimsProjection } from './claims.projection.ts';

const spec = readModelSpec(claimsProjection, openTestDatabase);
t.teardown(spec.close);

const tour = 'bbbb1111-2222-4333-8444-555566667777';
const load = 'aaaa1111-2222-4333-8444-555566667777';
const claim = 'cccc1111-2222-4333-8444-555566667777';
const claimedAt = '2026-12-05T17:00:00.000Z';
const dueAt = '2026-12-07T17:00:00.000Z';
const evidence = {
  arrivedAt: '2026-12-05T14:00:00.000Z',
  leftAt: claimedAt,
  appointmentAt: '2026-12-05T14:00:00.000Z',
  positionsInside: [{ latitude: 41.88, longitude: -87.63, at: '2026-12-05T15:00:00.000Z' }],
};
const event = (e: ClaimEvent) => on<ClaimEvent>(claimsStream(tour), e);
const claimed = event({
  type: 'AccessorialClaimed',
  data: {
    tourId: tour,
    loadId: load,
    claimId: claim,
    kind: 'detention',
    stopIndex: 1,
    minutes: 60,
    amount: 50,
    evidence,
    terms: STANDARD_TERMS,
    shipperOrganizationId: shipper,
    carrierOrganizationId: carrier,
    claimedBy: null,
    claimedAt,
    dueAt,
  },
});
const row = {
  id: claim,
  tour_id: tour,
  load_id: load,
  shipper_organization_id: shipper,
  carrier_organization_id: carrier,
  kind: 'detention',
  stop_index: 1,
  minutes: 60,
  amount: 50,
  status: 'claimed',
  evidence,
  note: null,
  dispute_reason: null,
  answer: null,
  approved_by: null,
  settled_amount: null,
  settlement_note: null,
  claimed_at: claimedAt,
  due_at: dueAt,
  updated_at: claimedAt,
};

t.test(
  'a claim produced at the departure, with its evidence and when silence approves it',
  async () => {
    await spec.given(claimed).expectRows('claims_view', [row]);
  },
);

t.test('approved by the passing of time, not by a person', async () => {
  await spec
    .given(
      claimed,
      event({
        type: 'AccessorialApproved',
        data: {
          tourId: tour,
          claimId: claim,
          approvedBy: null,
          bySilence: true,
          amount: 50,
          approvedAt: dueAt,
        },
      }),
    )
    .expectRows('claims_view', [
      { ...row, status: 'approved', approved_by: 'silence', updated_at: dueAt },
    ]);
});

t.test('disputed, answered by the carrier, settled by the Superadmin', async () => {
  await spec
    .given(
      claimed,
      event({
        type: 'AccessorialDisputed',
        data: {
          tourId: tour,
          claimId: claim,
          reason: 'Dock log says 2 hours',
          disputedBy: shipperUser,
          disputedAt: '2026-12-06T09:00:00.000Z',
        },
      }),
      event({
        type: 'AccessorialAnswered',
        data: {
          tourId: tour,
          claimId: claim,
          text: 'The geofence shows 3 hours',
          answeredBy: carrierUser,
          answeredAt: '2026-12-06T10:00:00.000Z',
        },
      }),
      event({
        type: 'AccessorialSettled',
        data: {
          tourId: tour,
          claimId: claim,
          amount: 25,
          note: 'Half',
          settledBy: shipperUser,
          settledAt: '2026-12-06T11:00:00.000Z',
        },
      }),
    )
    .expectRows('claims_view', [
      {
        ...row,
        status: 'settled',
        dispute_reason: 'Dock log says 2 hours',
        answer: 'The geofence shows 3 hours',
        note: 'The geofence shows 3 hours',
        settled_amount: 25,
        settlement_note: 'Half',
        updated_at: '2026-12-06T11:00:00.000Z',
      },
    ]);
});
