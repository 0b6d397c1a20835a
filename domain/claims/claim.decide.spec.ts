/** The rules of accessorial claims, given/when/then (docs/domain.md "Accessorial terms and claims"). */
import t from 'tap';
import { STANDARD_TERMS, type AccessorialTerms } from '../loads/terms.ts';
import { IllegalStateError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { claimDecider } from './claim.decide.ts';
import { detentionOf, DETENTION_REASONS, layoverOf } from './claim.rules.ts';
import type { AccessorialClaimed, ClaimCommand, ClaimEvidence } from './claim.types.ts';

const given = specFor(claimDecider);
const tourId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const loadId = '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d';
const claimId = 'c1000000-0000-4000-8000-000000000001';
const shipperUser = 'a1000000-0000-4000-8000-000000000001';
const carrierUser = 'a1000000-0000-4000-8000-000000000002';
const admin = 'a1000000-0000-4000-8000-000000000003';
const terms: AccessorialTerms = {
  ...STANDARD_TERMS,
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 60,
  detentionCap: 300,
  graceMinutes: 30,
  disputeWindowHours: 48,
};
const context = {
  tourId,
  loadId,
  shipperOrganizationId: '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01',
  carrierOrganizationId: '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12',
  terms,
};
const appointment = '2026-12-02T14:00:00.000Z';
const evidence = (arrivedAt: string, leftAt: string): ClaimEvidence => ({
  arrivedAt,
  leftAt,
  appointmentAt: appointment,
  positionsInside: [{ latitude: 41.88, longitude: -87.63, at: arrivedAt }],
});
const detention = (arrivedAt: string, leftAt: string, over = {}): ClaimCommand => ({
  type: 'ClaimDetention',
  data: {
    ...context,
    claimId,
    stopIndex: 1,
    stopKind: 'delivery',
    evidence: evidence(arrivedAt, leftAt),
    now: leftAt,
    ...over,
  },
});
const claimedDetention = (
  minutes: number,
  amount: number,
  arrivedAt: string,
  leftAt: string,
): AccessorialClaimed => ({
  type: 'AccessorialClaimed',
  data: {
    tourId,
    loadId,
    claimId,
    kind: 'detention',
    stopIndex: 1,
    minutes,
    amount,
    evidence: evidence(arrivedAt, leftAt),
    terms,
    shipperOrganizationId: context.shipperOrganizationId,
    carrierOrganizationId: context.carrierOrganizationId,
    claimedBy: null,
    claimedAt: leftAt,
    dueAt: new Date(Date.parse(leftAt) + 48 * 3600_000).toISOString(),
  },
});
// Three hours on site with two free: one hour of detention.
const held3h = claimedDetention(60, 60, '2026-12-02T14:00:00.000Z', '2026-12-02T17:00:00.000Z');

t.test('free time: a stop within its free time claims nothing', async () => {
  given([]).when(detention('2026-12-02T14:00:00.000Z', '2026-12-02T15:59:00.000Z')).then([]);
});

t.test('free time: time on site beyond it is billed by the minute at the hourly rate', async () => {
  given([]).when(detention('2026-12-02T14:00:00.000Z', '2026-12-02T17:00:00.000Z')).then([held3h]);
  given([])
    .when(detention('2026-12-02T14:00:00.000Z', '2026-12-02T16:30:00.000Z'))
    .then([claimedDetention(30, 30, '2026-12-02T14:00:00.000Z', '2026-12-02T16:30:00.000Z')]);
});

t.test('a stop is claimed once: the same departure again claims nothing more', async () => {
  given([held3h]).when(detention('2026-12-02T14:00:00.000Z', '2026-12-02T17:00:00.000Z')).then([]);
});

t.test('cap: detention never passes the cap of the terms', async () => {
  // Ten hours on site: 8 billable hours at $60 would be $480; the cap is $300.
  given([])
    .when(detention('2026-12-02T14:00:00.000Z', '2026-12-03T00:00:00.000Z'))
    .then([claimedDetention(480, 300, '2026-12-02T14:00:00.000Z', '2026-12-03T00:00:00.000Z')]);
});

t.test('early truck: the clock starts at the appointment, not the arrival', async () => {
  // Arrived 2 hours early, left 3 hours after the appointment: 1 billable hour, not 3.
  given([])
    .when(detention('2026-12-02T12:00:00.000Z', '2026-12-02T17:00:00.000Z'))
    .then([claimedDetention(60, 60, '2026-12-02T12:00:00.000Z', '2026-12-02T17:00:00.000Z')]);
  const clock = detentionOf(
    terms,
    { kind: 'delivery', arrivedAt: '2026-12-02T12:00:00.000Z', appointmentAt: appointment },
    '2026-12-02T17:00:00.000Z',
  );
  t.equal(clock.clockStartsAt, appointment);
  t.equal(clock.detentionStartsAt, '2026-12-02T16:00:00.000Z');
});

t.test('late truck: after the appointment plus the grace it earns none, and says why', async () => {
  given([]).when(detention('2026-12-02T14:31:00.000Z', '2026-12-02T19:00:00.000Z')).then([]);
  const late = detentionOf(
    terms,
    { kind: 'delivery', arrivedAt: '2026-12-02T14:31:00.000Z', appointmentAt: appointment },
    '2026-12-02T19:00:00.000Z',
  );
  t.equal(late.reason, 'late');
  t.equal(late.amount, 0);
  t.match(DETENTION_REASONS.late, /after its appointment and the grace/);
  // Within the grace the clock starts at the arrival.
  given([])
    .when(detention('2026-12-02T14:30:00.000Z', '2026-12-02T17:30:00.000Z'))
    .then([claimedDetention(60, 60, '2026-12-02T14:30:00.000Z', '2026-12-02T17:30:00.000Z')]);
});

t.test('no terms: a load without agreed terms claims nothing', async () => {
  given([])
    .when(
      detention('2026-12-02T14:00:00.000Z', '2026-12-02T20:00:00.000Z', {
        terms: null,
      }),
    )
    .then([]);
});

const tonu = (committed: 'confirmed' | 'dispatched' | null): ClaimCommand => ({
  type: 'ClaimTonu',
  data: {
    ...context,
    claimId,
    committed,
    canceledAt: '2026-12-01T10:00:00.000Z',
    now: '2026-12-01T10:00:00.000Z',
  },
});

t.test('TONU before the carrier confirmed: nothing', async () => {
  given([]).when(tonu(null)).then([]);
});

t.test('TONU after the carrier confirmed: the flat fee of the terms', async () => {
  given([])
    .when(tonu('confirmed'))
    .then([
      {
        type: 'AccessorialClaimed',
        data: {
          tourId,
          loadId,
          claimId,
          kind: 'tonu',
          stopIndex: null,
          minutes: 0,
          amount: terms.tonu,
          evidence: {
            arrivedAt: null,
            leftAt: null,
            appointmentAt: null,
            positionsInside: [],
            canceledAt: '2026-12-01T10:00:00.000Z',
            committed: 'confirmed',
          },
          terms,
          shipperOrganizationId: context.shipperOrganizationId,
          carrierOrganizationId: context.carrierOrganizationId,
          claimedBy: null,
          claimedAt: '2026-12-01T10:00:00.000Z',
          dueAt: '2026-12-03T10:00:00.000Z',
        },
      },
    ]);
});

t.test('layover: a truck held overnight is paid per day (per midnight at the stop)', async () => {
  const command: ClaimCommand = {
    type: 'ClaimLayover',
    data: {
      ...context,
      claimId,
      stopIndex: 1,
      evidence: evidence('2026-12-02T14:00:00.000Z', '2026-12-04T09:00:00.000Z'),
      timezone: 'America/Chicago',
      now: '2026-12-04T09:00:00.000Z',
    },
  };
  const [event] = claimDecider.decide(command, claimDecider.initialState());
  t.equal(event?.type, 'AccessorialClaimed');
  t.match(event?.data, { kind: 'layover', days: 2, amount: 2 * terms.layoverPerDay });
  t.same(
    layoverOf(
      terms,
      {
        arrivedAt: '2026-12-02T14:00:00.000Z',
        appointmentAt: appointment,
        timezone: 'America/Chicago',
      },
      '2026-12-02T22:00:00.000Z',
    ).days,
    0,
    'the same evening in Chicago is no night',
  );
});

const lumper = (amount: number, lumperTerms: AccessorialTerms | null = terms): ClaimCommand => ({
  type: 'ClaimLumper',
  data: {
    ...context,
    terms: lumperTerms,
    claimId,
    stopIndex: 1,
    amount,
    receiptFileId: 'f1000000-0000-4000-8000-000000000001',
    userId: carrierUser,
    now: '2026-12-02T18:00:00.000Z',
  },
});

t.test('lumper: reimbursed against the receipt, unless the shipper pays it', async () => {
  const [event] = claimDecider.decide(lumper(185.5), claimDecider.initialState());
  t.match(event?.data, {
    kind: 'lumper',
    amount: 185.5,
    claimedBy: carrierUser,
    evidence: { receiptFileId: 'f1000000-0000-4000-8000-000000000001' },
  });
  given([])
    .when(lumper(100, { ...terms, lumper: 'shipper' }))
    .thenThrows(IllegalStateError, /shipper pays the lumper/);
  given([]).when(lumper(0)).thenThrows(ValidationError);
  given([])
    .when(lumper(100, null))
    .thenThrows(IllegalStateError, /no accessorial terms/);
});

const approve = (now: string, bySilence = false): ClaimCommand => ({
  type: 'ApproveClaim',
  data: { tourId, claimId, userId: bySilence ? null : shipperUser, bySilence, now },
});
const dispute = (now: string, reason = 'The dock log shows 2 hours'): ClaimCommand => ({
  type: 'DisputeClaim',
  data: { tourId, claimId, userId: shipperUser, reason, now },
});

t.test('approval by the shipper within the window', async () => {
  given([held3h])
    .when(approve('2026-12-03T09:00:00.000Z'))
    .then([
      {
        type: 'AccessorialApproved',
        data: {
          tourId,
          claimId,
          approvedBy: shipperUser,
          bySilence: false,
          amount: 60,
          approvedAt: '2026-12-03T09:00:00.000Z',
        },
      },
    ]);
});

t.test('approval by silence: only once the window closed, by no person', async () => {
  given([held3h]).when(approve('2026-12-04T16:59:00.000Z', true)).then([]);
  given([held3h])
    .when(approve('2026-12-04T17:00:00.000Z', true))
    .then([
      {
        type: 'AccessorialApproved',
        data: {
          tourId,
          claimId,
          approvedBy: null,
          bySilence: true,
          amount: 60,
          approvedAt: '2026-12-04T17:00:00.000Z',
        },
      },
    ]);
  const state = [
    held3h,
    ...claimDecider.decide(
      approve('2026-12-04T17:00:00.000Z', true),
      claimDecider.evolve(claimDecider.initialState(), held3h),
    ),
  ].reduce(claimDecider.evolve, claimDecider.initialState());
  t.equal(state.claims[0]?.approvedBy, 'silence');
});

const disputed = {
  type: 'AccessorialDisputed' as const,
  data: {
    tourId,
    claimId,
    reason: 'The dock log shows 2 hours',
    disputedBy: shipperUser,
    disputedAt: '2026-12-03T09:00:00.000Z',
  },
};

t.test(
  'dispute: with a reason, within the window; silence leaves a disputed claim alone',
  async () => {
    given([held3h]).when(dispute('2026-12-03T09:00:00.000Z')).then([disputed]);
    given([held3h]).when(dispute('2026-12-03T09:00:00.000Z', '  ')).thenThrows(ValidationError);
    given([held3h])
      .when(dispute('2026-12-04T17:00:00.000Z'))
      .thenThrows(IllegalStateError, /window/);
    given([held3h, disputed]).when(approve('2026-12-05T09:00:00.000Z', true)).then([]);
  },
);

const answer: ClaimCommand = {
  type: 'AnswerClaim',
  data: {
    tourId,
    claimId,
    userId: carrierUser,
    text: 'The geofence recorded 3 hours',
    now: '2026-12-03T10:00:00.000Z',
  },
};
const answered = {
  type: 'AccessorialAnswered' as const,
  data: {
    tourId,
    claimId,
    text: 'The geofence recorded 3 hours',
    answeredBy: carrierUser,
    answeredAt: '2026-12-03T10:00:00.000Z',
  },
};

t.test('answer: the carrier answers a dispute, not an undisputed claim', async () => {
  given([held3h, disputed]).when(answer).then([answered]);
  given([held3h])
    .when(answer)
    .thenThrows(IllegalStateError, /no dispute/);
});

t.test('settlement by the Superadmin: an amount up to the claim, with a note', async () => {
  const settle = (amount: number): ClaimCommand => ({
    type: 'SettleClaim',
    data: {
      tourId,
      claimId,
      userId: admin,
      amount,
      note: 'Split',
      now: '2026-12-04T10:00:00.000Z',
    },
  });
  given([held3h, disputed, answered])
    .when(settle(45))
    .then([
      {
        type: 'AccessorialSettled',
        data: {
          tourId,
          claimId,
          amount: 45,
          note: 'Split',
          settledBy: admin,
          settledAt: '2026-12-04T10:00:00.000Z',
        },
      },
    ]);
  given([held3h, disputed]).when(settle(61)).thenThrows(ValidationError);
  given([held3h])
    .when(settle(30))
    .thenThrows(IllegalStateError, /no dispute to settle/);
});

t.test('a note adds words, never changes the evidence or the amount', async () => {
  const note: ClaimCommand = {
    type: 'NoteClaim',
    data: { tourId, claimId, userId: carrierUser, note: 'Door 4', now: '2026-12-03T08:00:00.000Z' },
  };
  const events = claimDecider.decide(
    note,
    claimDecider.evolve(claimDecider.initialState(), held3h),
  );
  const state = [held3h, ...events].reduce(claimDecider.evolve, claimDecider.initialState());
  t.equal(state.claims[0]?.note, 'Door 4');
  t.same(state.claims[0]?.evidence, held3h.data.evidence);
  t.equal(state.claims[0]?.amount, 60);
});
