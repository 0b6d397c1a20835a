import t from 'tap';
import { TourStatus, type TourStatusId } from '../catalog.ts';
import {
  ConflictError,
  ForbiddenError,
  IllegalStateError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { tourDecider } from './tour.decide.ts';
import type { ProofFile, Tour, TourActor, TourCommand, TourEvent, TourStop } from './tour.types.ts';

const given = specFor(tourDecider);
const tourId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const shipperOrganizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const carrierOrganizationId = '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12';
const driverId = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const opened = '2026-12-01T10:00:00.000Z';
const now = '2026-12-02T08:00:00.000Z';
const proofId = '7d6c5b4a-3f2e-4d1c-8b0a-9e8d7c6b5a41';

const driver: TourActor = {
  userId: driverId,
  party: 'driver',
  organizationId: carrierOrganizationId,
};
const otherDriver: TourActor = { ...driver, userId: '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901' };
const carrier: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000002',
  party: 'carrier',
  organizationId: carrierOrganizationId,
};
const shipper: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000001',
  party: 'shipper',
  organizationId: shipperOrganizationId,
};
const admin: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000003',
  party: 'admin',
  organizationId: null,
};

const pickup: TourStop = {
  id: 'stop-pickup',
  locationType: 1,
  name: 'Chicago DC',
  address: '1 Canal St',
  city: 'Chicago',
  state: 'IL',
  latitude: 41.8781,
  longitude: -87.6298,
};
const middle: TourStop = {
  id: 'stop-middle',
  locationType: 4,
  name: 'Gary Depot',
  address: '3 Broadway',
  city: 'Gary',
  state: 'IN',
  latitude: 41.5934,
  longitude: -87.3464,
};
const last: TourStop = {
  id: 'stop-last',
  locationType: 4,
  name: 'Indy Warehouse',
  address: '2 Meridian St',
  city: 'Indianapolis',
  state: 'IN',
  latitude: 39.7684,
  longitude: -86.1581,
};

const moved = (from: TourStatusId, to: TourStatusId): TourEvent => ({
  type: 'TourStatusChanged',
  data: { tourId, from, to, message: '', changedBy: null, party: 'admin', changedAt: opened },
});
const arrived = (stopId: string): TourEvent => ({
  type: 'TourEventAdded',
  data: {
    tourId,
    eventId: `${tourId}-arrived-${stopId}`,
    type: 'arrived',
    message: 'Arrived',
    stopId,
    addedBy: null,
    at: opened,
  },
});
const inTransit: TourEvent[] = [
  {
    type: 'TourOpened',
    data: {
      tourId,
      loadId: 'load-1',
      loadGuid: 'L-1',
      proposalId: 'p-1',
      shipperOrganizationId,
      carrierOrganizationId,
      price: 1000,
      eldTruckName: null,
      stops: [pickup, middle, last],
      openedAt: opened,
    },
  },
  {
    type: 'CarrierConfirmed',
    data: { tourId, contractFileId: 'file-contract', confirmedAt: opened },
  },
  {
    type: 'TourAssigned',
    data: {
      tourId,
      assigneeId: driverId,
      assigneeName: 'Dan Driver',
      previousAssigneeId: null,
      assignedBy: carrier.userId,
      assignedAt: opened,
    },
  },
  moved(8, 2),
  moved(2, 3),
  moved(3, 9),
];
const atLastStop = [...inTransit, arrived(pickup.id), arrived(middle.id), arrived(last.id)];

const files: ProofFile[] = [
  { id: 'file-photo', kind: 'photo', name: 'photo-1.jpg' },
  { id: 'file-signature', kind: 'signature', name: 'signature.png' },
];
const record = (
  actor: TourActor,
  overrides: Partial<{
    receivedBy: string;
    note: string | null;
    files: ProofFile[];
    proofId: string;
  }> = {},
): TourCommand => ({
  type: 'RecordProofOfDelivery',
  data: {
    tourId,
    actor,
    proofId,
    receivedBy: ' Rita Receiver ',
    note: ' Two pallets ',
    files,
    now,
    ...overrides,
  },
});
const recordedEvent: TourEvent = {
  type: 'ProofOfDeliveryRecorded',
  data: {
    tourId,
    proofId,
    receivedBy: 'Rita Receiver',
    note: 'Two pallets',
    files,
    recordedBy: driverId,
    recordedAt: now,
  },
};
const timelineLine = (receivedBy = 'Rita Receiver'): TourEvent => ({
  type: 'TourEventAdded',
  data: {
    tourId,
    eventId: `${tourId}-note-pod-${proofId}`,
    type: 'note',
    message: `Proof of delivery, received by ${receivedBy}`,
    stopId: last.id,
    addedBy: driverId,
    at: now,
  },
});
const fold = (events: TourEvent[]): Tour =>
  events.reduce(tourDecider.evolve, tourDecider.initialState());

t.test(
  'the assigned driver records the proof at the last stop, trimmed, with its line in the timeline, and the tour keeps it',
  async (t) => {
    given(atLastStop).when(record(driver)).then([recordedEvent, timelineLine()]);
    const tour = fold([...atLastStop, recordedEvent]);
    t.ok(tour.exists);
    if (tour.exists)
      t.same(tour.proofs, [
        {
          proofId,
          receivedBy: 'Rita Receiver',
          note: 'Two pallets',
          files,
          recordedBy: driverId,
          recordedAt: now,
        },
      ]);
  },
);

t.test('also while the delivery waits for the shipper', async () => {
  given([...atLastStop, moved(9, 10)])
    .when(record(driver))
    .then([recordedEvent, timelineLine()]);
});

t.test('the same proof sent again is recorded once', async () => {
  given([...atLastStop, recordedEvent])
    .when(record(driver))
    .then([]);
  // Even once the shipper confirmed the delivery: the retry of a proof already taken is no new proof.
  given([...atLastStop, recordedEvent, moved(9, 10), moved(10, 4)])
    .when(record(driver))
    .then([]);
});

t.test('its id used by someone else is a conflict', async () => {
  const other: TourActor = { ...driver, userId: 'c3000000-0000-4000-8000-000000000009' };
  const reassigned: TourEvent = {
    type: 'TourAssigned',
    data: {
      tourId,
      assigneeId: other.userId!,
      assigneeName: 'Other',
      previousAssigneeId: driverId,
      assignedBy: null,
      assignedAt: now,
    },
  };
  given([...atLastStop, recordedEvent, reassigned])
    .when(record(other))
    .thenThrows(ConflictError, /already used/);
});

t.test('only the assigned driver records it', async (t) => {
  for (const [name, actor] of Object.entries({ carrier, shipper, admin })) {
    t.test(name, async () =>
      given(atLastStop)
        .when(record(actor))
        .thenThrows(ForbiddenError, /Only the driver assigned/),
    );
  }
  t.test('another driver does not see the tour', async () =>
    given(atLastStop)
      .when(record(otherDriver))
      .thenThrows(NotFoundError, /Tour not found/),
  );
});

t.test('the window: from the arrival at the last stop until Delivered', async (t) => {
  t.test('on the road', async () =>
    given(inTransit)
      .when(record(driver))
      .thenThrows(IllegalStateError, /arrived at the last stop/),
  );
  t.test('at a stop before the last', async () =>
    given([...inTransit, arrived(pickup.id), arrived(middle.id)])
      .when(record(driver))
      .thenThrows(IllegalStateError, /arrived at the last stop/),
  );
  t.test('delivered', async () =>
    given([...atLastStop, moved(9, 10), moved(10, TourStatus.Delivered)])
      .when(record(driver))
      .thenThrows(IllegalStateError, /already delivered/),
  );
});

t.test('who received the goods and a file are required', async (t) => {
  t.test('receivedBy', async () =>
    given(atLastStop)
      .when(record(driver, { receivedBy: '  ' }))
      .thenThrows(ValidationError, /who received/),
  );
  t.test('files', async () =>
    given(atLastStop)
      .when(record(driver, { files: [] }))
      .thenThrows(ValidationError, /photo or the signature/),
  );
  t.test('an empty note is none', async () => {
    given(atLastStop)
      .when(record(driver, { note: '  ' }))
      .then([
        { ...recordedEvent, data: { ...recordedEvent.data, note: null } } as TourEvent,
        timelineLine(),
      ]);
  });
});

t.test(
  "the shipper confirms the delivery on the driver's proof: once, the tour Delivered",
  async () => {
    const confirm = (actor: TourActor): TourCommand => ({
      type: 'ConfirmDelivery',
      data: { tourId, actor, now: '2026-12-02T09:00:00.000Z' },
    });
    const withProof = [...atLastStop, recordedEvent, timelineLine()];
    const loadId = (fold(withProof) as { loadId: string }).loadId;
    const confirmed: TourEvent = {
      type: 'DeliveryConfirmed',
      data: {
        tourId,
        loadId,
        proofId,
        shipperOrganizationId,
        carrierOrganizationId,
        confirmedBy: shipper.userId,
        confirmedAt: '2026-12-02T09:00:00.000Z',
      },
    };
    const delivered: TourEvent[] = [
      {
        type: 'TourStatusChanged',
        data: {
          tourId,
          from: TourStatus.InTransit,
          to: TourStatus.Delivered,
          message: 'Delivery confirmed on the proof of delivery',
          changedBy: shipper.userId,
          party: 'shipper',
          changedAt: '2026-12-02T09:00:00.000Z',
        },
      },
      {
        type: 'TourEventAdded',
        data: {
          tourId,
          eventId: `${tourId}-status-${TourStatus.Delivered}`,
          type: 'status',
          message: 'Delivery confirmed on the proof of delivery',
          stopId: null,
          addedBy: shipper.userId,
          at: '2026-12-02T09:00:00.000Z',
        },
      },
    ];
    given(withProof)
      .when(confirm(shipper))
      .then([confirmed, ...delivered]);
    given(withProof)
      .when(confirm(carrier))
      .thenThrows(ForbiddenError, /Only the shipper/);
    given(withProof).when(confirm(driver)).thenThrows(ForbiddenError);
    given(atLastStop)
      .when(confirm(shipper))
      .thenThrows(IllegalStateError, /proof of delivery/);
    given([...withProof, confirmed, ...delivered])
      .when(confirm(admin))
      .thenThrows(IllegalStateError, /already confirmed/);
    // Delivered already (by the status step): the confirmation alone.
    given([...withProof, ...delivered])
      .when(confirm(admin))
      .then([{ ...confirmed, data: { ...confirmed.data, confirmedBy: admin.userId } }]);
  },
);
