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
import { tourDecider, tourStatusName } from './tour.decide.ts';
import type {
  RatingEntry,
  Tour,
  TourActor,
  TourCommand,
  TourEvent,
  TourEventAdded,
  TourOpened,
  TourStatusChanged,
  TourStop,
} from './tour.types.ts';

const given = specFor(tourDecider);
const tourId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const loadId = '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d';
const offerId = '9f8e7d6c-5b4a-4c2d-8e0f-a1b2c3d4e5f6';
const shipperOrganizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const carrierOrganizationId = '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12';
const driverId = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const secondDriverId = '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901';
const opened = '2026-12-01T10:00:00.000Z';
const now = '2026-12-02T08:00:00.000Z';

const shipper: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000001',
  party: 'shipper',
  organizationId: shipperOrganizationId,
};
const carrier: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000002',
  party: 'carrier',
  organizationId: carrierOrganizationId,
};
const driver: TourActor = {
  userId: driverId,
  party: 'driver',
  organizationId: carrierOrganizationId,
};
const admin: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000003',
  party: 'admin',
  organizationId: null,
};
const system: TourActor = { userId: null, party: 'system', organizationId: null };
const otherShipper: TourActor = {
  ...shipper,
  organizationId: 'b2000000-0000-4000-8000-000000000001',
};
const otherCarrier: TourActor = {
  ...carrier,
  organizationId: 'b2000000-0000-4000-8000-000000000002',
};
const otherDriver: TourActor = { ...driver, userId: secondDriverId };

// Chicago to Indianapolis: the stops are far apart, so only one fence can hold the truck at a time.
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
const dropoff: TourStop = {
  id: 'stop-dropoff',
  locationType: 4,
  name: 'Indy Warehouse',
  address: '2 Meridian St',
  city: 'Indianapolis',
  state: 'IN',
  latitude: 39.7684,
  longitude: -86.1581,
};

const tourOpened: TourOpened = {
  type: 'TourOpened',
  data: {
    tourId,
    loadId,
    loadGuid: 'L-000042',
    proposalId: offerId,
    shipperOrganizationId,
    carrierOrganizationId,
    price: 1250,
    eldTruckName: null,
    stops: [pickup, dropoff],
    openedAt: opened,
  },
};
const carrierConfirmed: TourEvent = {
  type: 'CarrierConfirmed',
  data: { tourId, contractFileId: 'file-contract', confirmedAt: opened },
};
const assigned: TourEvent = {
  type: 'TourAssigned',
  data: {
    tourId,
    assigneeId: driverId,
    assigneeName: 'Dan Driver',
    previousAssigneeId: null,
    assignedBy: carrier.userId,
    assignedAt: opened,
  },
};
const moved = (from: TourStatusId, to: TourStatusId): TourStatusChanged => ({
  type: 'TourStatusChanged',
  data: { tourId, from, to, message: '', changedBy: null, party: 'admin', changedAt: opened },
});
const canceled: TourEvent = {
  type: 'TourCanceled',
  data: {
    tourId,
    from: 7,
    message: 'Plans changed',
    party: 'shipper',
    canceledBy: shipper.userId,
    canceledAt: opened,
  },
};

const at7 = [tourOpened];
const at8 = [...at7, carrierConfirmed];
const at2 = [...at8, assigned, moved(8, 2)];
const at3 = [...at2, moved(2, 3)];
const at9 = [...at3, moved(3, 9)];
const at10 = [...at9, moved(9, 10)];
const at4 = [...at10, moved(10, 4)];
const at5 = [...at7, canceled];
const historyAt = { 7: at7, 8: at8, 2: at2, 3: at3, 9: at9, 10: at10, 4: at4, 5: at5 } as Record<
  number,
  TourEvent[]
>;
const reachable: TourStatusId[] = [7, 8, 2, 3, 9, 10, 4, 5];
const allStatuses: TourStatusId[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

const statusEntry = (
  to: TourStatusId,
  message: string,
  addedBy: string | null,
  at = now,
): TourEventAdded => ({
  type: 'TourEventAdded',
  data: {
    tourId,
    eventId: `${tourId}-status-${to}`,
    type: 'status',
    message,
    stopId: null,
    addedBy,
    at,
  },
});
const statusChanged = (
  from: TourStatusId,
  to: TourStatusId,
  actor: TourActor,
  message = '',
): TourEvent[] => [
  {
    type: 'TourStatusChanged',
    data: {
      tourId,
      from,
      to,
      message,
      changedBy: actor.userId,
      party: actor.party,
      changedAt: now,
    },
  },
  statusEntry(to, message || tourStatusName(to), actor.userId),
];

const confirm = (contractFileId = 'file-contract-2'): TourCommand => ({
  type: 'ConfirmCarrier',
  data: { tourId, contractFileId, now },
});
const assign = (
  actor: TourActor,
  assigneeId = driverId,
  assigneeName = 'Dan Driver',
): TourCommand => ({
  type: 'AssignTour',
  data: { tourId, actor, assigneeId, assigneeName, now },
});
const change = (actor: TourActor, to: TourStatusId, message = ''): TourCommand => ({
  type: 'ChangeTourStatus',
  data: { tourId, actor, to, message, now },
});
const addEvent = (
  actor: TourActor,
  type: TourEventAdded['data']['type'],
  message: string,
  stopId: string | null = null,
): TourCommand => ({
  type: 'AddTourEvent',
  data: { tourId, actor, eventId: 'event-1', type, message, stopId, now },
});
const carrierRatings: RatingEntry[] = [
  { criteria: 1, rating: 5 },
  { criteria: 2, rating: 4.5 },
  { criteria: 3, rating: 4 },
  { criteria: 4, rating: 0.5 },
];
const shipperRatings: RatingEntry[] = [
  { criteria: 5, rating: 3 },
  { criteria: 6, rating: 3.5 },
  { criteria: 7, rating: 5 },
  { criteria: 8, rating: 2 },
];
const rate = (actor: TourActor, ratings: RatingEntry[]): TourCommand => ({
  type: 'RateTour',
  data: { tourId, actor, ratings, now },
});
const cancel = (actor: TourActor, message = 'Shipment called off'): TourCommand => ({
  type: 'CancelTour',
  data: { tourId, actor, message, now },
});
const observe = (latitude: number, longitude: number, recordedAt = now): TourCommand => ({
  type: 'ObservePosition',
  data: { tourId, latitude, longitude, recordedAt, now },
});

const fold = (events: TourEvent[]): Tour =>
  events.reduce(tourDecider.evolve, tourDecider.initialState());

t.test('OpenTour', async (t) => {
  const { openedAt: _openedAt, ...openData } = tourOpened.data;
  const openCommand: TourCommand = { type: 'OpenTour', data: { ...openData, now: opened } };
  t.test('opens the tour at Bid Accepted', async (t) => {
    given([]).when(openCommand).then([tourOpened]);
    const tour = fold([tourOpened]);
    t.ok(
      tour.exists &&
        tour.status === TourStatus.BidAccepted &&
        tour.assigneeId === null &&
        tour.updatedAt === opened,
    );
  });
  t.test('refuses to open it twice', async () =>
    given(at7)
      .when(openCommand)
      .thenThrows(ConflictError, /^Tour already exists$/),
  );
});

t.test('a missing tour is not found for every other command', async (t) => {
  const commands: TourCommand[] = [
    confirm(),
    assign(carrier),
    change(admin, 3),
    addEvent(carrier, 'note', 'hi'),
    observe(1, 1),
    rate(shipper, carrierRatings),
    cancel(shipper),
  ];
  for (const command of commands)
    t.test(command.type, async () =>
      given([])
        .when(command)
        .thenThrows(NotFoundError, /^Tour not found$/),
    );
});

t.test('tenant rule: other organizations and other drivers do not see the tour', async (t) => {
  const strangers = { otherShipper, otherCarrier, otherDriver };
  for (const [name, actor] of Object.entries(strangers)) {
    const commands: TourCommand[] = [
      assign(actor),
      change(actor, 3),
      addEvent(actor, 'note', 'hi'),
      rate(actor, carrierRatings),
      cancel(actor),
    ];
    for (const command of commands) {
      t.test(`${name}: ${command.type}`, async () =>
        given(at2)
          .when(command)
          .thenThrows(NotFoundError, /^Tour not found$/),
      );
    }
  }
  t.test('a driver before being assigned', async () =>
    given(at8)
      .when(addEvent(driver, 'note', 'hi'))
      .thenThrows(NotFoundError),
  );
  t.test('the previous driver after a reassignment', async () =>
    given([
      ...at2,
      {
        type: 'TourAssigned',
        data: { ...assigned.data, assigneeId: secondDriverId, previousAssigneeId: driverId },
      },
    ])
      .when(addEvent(driver, 'note', 'hi'))
      .thenThrows(NotFoundError),
  );
  t.test('an administrator passes', async () =>
    given(at2)
      .when(addEvent(admin, 'note', 'hi'))
      .then([
        {
          type: 'TourEventAdded',
          data: {
            tourId,
            eventId: 'event-1',
            type: 'note',
            message: 'hi',
            stopId: null,
            addedBy: admin.userId,
            at: now,
          },
        },
      ]),
  );
});

t.test('ConfirmCarrier', async (t) => {
  const confirmed = (contractFileId: string): TourEvent[] => [
    { type: 'CarrierConfirmed', data: { tourId, contractFileId, confirmedAt: now } },
  ];
  t.test('the signed contract moves Bid Accepted to Carrier Confirmed', async (t) => {
    given(at7).when(confirm()).then(confirmed('file-contract-2'));
    const tour = fold([...at7, ...confirmed('file-contract-2')]);
    t.ok(
      tour.exists &&
        tour.status === TourStatus.CarrierConfirmed &&
        tour.contractFileId === 'file-contract-2',
    );
  });
  t.test('the contract may be replaced while Carrier Confirmed', async () =>
    given(at8).when(confirm()).then(confirmed('file-contract-2')),
  );
  for (const status of [2, 3, 9, 10, 4, 5] as TourStatusId[]) {
    t.test(`refused once ${tourStatusName(status)}`, async () =>
      given(historyAt[status])
        .when(confirm())
        .thenThrows(
          IllegalStateError,
          new RegExp(`A tour that is ${tourStatusName(status)} cannot`),
        ),
    );
  }
  t.test('needs a file', async () =>
    given(at7)
      .when(confirm(' '))
      .thenThrows(ValidationError, /A file is required/),
  );
});

t.test('AssignTour', async (t) => {
  t.test('from Carrier Confirmed: assigned and Ready for pickup', async (t) => {
    const expected: TourEvent[] = [
      {
        type: 'TourAssigned',
        data: {
          tourId,
          assigneeId: driverId,
          assigneeName: 'Dan Driver',
          previousAssigneeId: null,
          assignedBy: carrier.userId,
          assignedAt: now,
        },
      },
      ...statusChanged(8, 2, carrier, 'Assigned to Dan Driver'),
    ];
    given(at8).when(assign(carrier)).then(expected);
    const tour = fold([...at8, ...expected]);
    t.ok(
      tour.exists &&
        tour.status === TourStatus.ReadyForPickup &&
        tour.assigneeId === driverId &&
        tour.assigneeName === 'Dan Driver',
    );
  });
  t.test('an administrator may assign', async () =>
    given(at8)
      .when(assign(admin))
      .then([
        {
          type: 'TourAssigned',
          data: {
            tourId,
            assigneeId: driverId,
            assigneeName: 'Dan Driver',
            previousAssigneeId: null,
            assignedBy: admin.userId,
            assignedAt: now,
          },
        },
        ...statusChanged(8, 2, admin, 'Assigned to Dan Driver'),
      ]),
  );
  for (const status of [2, 3] as TourStatusId[]) {
    t.test(`reassigns while ${tourStatusName(status)} without a status change`, async () =>
      given(historyAt[status])
        .when(assign(carrier, secondDriverId, 'Sue Second'))
        .then([
          {
            type: 'TourAssigned',
            data: {
              tourId,
              assigneeId: secondDriverId,
              assigneeName: 'Sue Second',
              previousAssigneeId: driverId,
              assignedBy: carrier.userId,
              assignedAt: now,
            },
          },
        ]),
    );
  }
  t.test('assigning the same driver again changes nothing', async () =>
    given(at2).when(assign(carrier)).then([]),
  );
  t.test('needs the signed contract first', async () =>
    given(at7)
      .when(assign(carrier))
      .thenThrows(IllegalStateError, /^Upload the signed contract before assigning a driver$/),
  );
  for (const status of [9, 10, 4, 5] as TourStatusId[]) {
    t.test(`refused once ${tourStatusName(status)}`, async () =>
      given(historyAt[status])
        .when(assign(carrier, secondDriverId))
        .thenThrows(IllegalStateError, new RegExp(`A tour that is ${tourStatusName(status)}`)),
    );
  }
  for (const [name, actor] of Object.entries({ shipper, driver, system })) {
    t.test(`the ${name} may not assign`, async () =>
      given(at2)
        .when(assign(actor, secondDriverId))
        .thenThrows(ForbiddenError, /^Only the carrier can assign a driver$/),
    );
  }
});

t.test('ChangeTourStatus', async (t) => {
  const allowed: Record<number, TourStatusId> = { 2: 3, 3: 9, 9: 10, 10: 4 };
  for (const from of reachable) {
    for (const to of allStatuses) {
      const name = `${tourStatusName(from)} (${from}) to ${tourStatusName(to)} (${to})`;
      if (allowed[from] === to) {
        t.test(`allows ${name}`, async () =>
          given(historyAt[from])
            .when(change(admin, to, ' On our way '))
            .then(statusChanged(from, to, admin, 'On our way')),
        );
      } else {
        t.test(`refuses ${name}`, async () =>
          given(historyAt[from])
            .when(change(admin, to))
            .thenThrows(IllegalStateError, new RegExp(`^A tour that is ${tourStatusName(from)} `)),
        );
      }
    }
  }
  t.test('the message names both statuses', async () =>
    given(at4)
      .when(change(admin, 3))
      .thenThrows(IllegalStateError, /^A tour that is Delivered cannot move to Dispatched$/),
  );
  t.test('Canceled goes through CancelTour', async () =>
    given(at3)
      .when(change(carrier, 5, 'x'))
      .thenThrows(IllegalStateError, /Dispatched is canceled with a message/),
  );
  t.test('an empty message records the status name on the timeline', async () =>
    given(at2)
      .when(change(driver, 3))
      .then(statusChanged(2, 3, driver)),
  );

  const parties: Record<string, TourActor> = { shipper, carrier, driver, admin, system };
  const who: Record<number, string[]> = {
    2: ['driver', 'carrier', 'admin'],
    3: ['driver', 'carrier', 'admin'],
    9: ['driver', 'carrier', 'admin'],
    10: ['shipper', 'admin'],
  };
  for (const [from, to] of Object.entries(allowed)) {
    for (const [name, actor] of Object.entries(parties)) {
      const label = `${name}: ${tourStatusName(Number(from) as TourStatusId)} to ${tourStatusName(to)}`;
      if (who[Number(from)].includes(name)) {
        t.test(`${label} allowed`, async () =>
          given(historyAt[Number(from)])
            .when(change(actor, to))
            .then(statusChanged(Number(from) as TourStatusId, to, actor)),
        );
      } else {
        t.test(`${label} forbidden`, async () =>
          given(historyAt[Number(from)])
            .when(change(actor, to))
            .thenThrows(
              ForbiddenError,
              new RegExp(`^Only the .* can move a tour to ${tourStatusName(to)}$`),
            ),
        );
      }
    }
  }
  t.test('only the shipper or an administrator confirms the delivery', async () =>
    given(at10)
      .when(change(driver, 4))
      .thenThrows(
        ForbiddenError,
        /^Only the shipper or an administrator can move a tour to Delivered$/,
      ),
  );
  t.test('a status change moves the tour and stamps updatedAt', async (t) => {
    const tour = fold([...at2, ...statusChanged(2, 3, driver)]);
    t.ok(tour.exists && tour.status === TourStatus.Dispatched && tour.updatedAt === now);
  });
});

t.test('AddTourEvent', async (t) => {
  const added = (
    type: TourEventAdded['data']['type'],
    message: string,
    stopId: string | null,
    actor: TourActor,
  ): TourEvent[] => [
    {
      type: 'TourEventAdded',
      data: { tourId, eventId: 'event-1', type, message, stopId, addedBy: actor.userId, at: now },
    },
  ];
  for (const [name, actor] of Object.entries({ shipper, carrier, driver, admin })) {
    t.test(`the ${name} adds a note`, async () =>
      given(at3)
        .when(addEvent(actor, 'note', ' Gate 4 '))
        .then(added('note', 'Gate 4', null, actor)),
    );
  }
  t.test('a delay at a stop', async () =>
    given(at9)
      .when(addEvent(driver, 'delay', 'Traffic', dropoff.id))
      .then(added('delay', 'Traffic', dropoff.id, driver)),
  );
  t.test('an arrival needs no message', async () =>
    given(at3)
      .when(addEvent(driver, 'arrived', '', pickup.id))
      .then(added('arrived', 'Arrived at Chicago DC', pickup.id, driver)),
  );
  t.test('a departure without stop needs no message', async () =>
    given(at3)
      .when(addEvent(driver, 'departed', ' '))
      .then(added('departed', 'Departed', null, driver)),
  );
  for (const type of ['note', 'delay', 'issue'] as const) {
    t.test(`a ${type} needs a message`, async () =>
      given(at3)
        .when(addEvent(driver, type, '  '))
        .thenThrows(ValidationError, /^Please enter a message$/),
    );
  }
  t.test("status entries are the server's", async () =>
    given(at3)
      .when(addEvent(admin, 'status', 'x'))
      .thenThrows(ValidationError),
  );
  t.test('an unknown stop', async () =>
    given(at3)
      .when(addEvent(driver, 'note', 'x', 'stop-elsewhere'))
      .thenThrows(ValidationError, /^Unknown stop$/),
  );
  for (const status of [4, 5] as TourStatusId[]) {
    t.test(`refused once ${tourStatusName(status)}`, async () =>
      given(historyAt[status])
        .when(addEvent(admin, 'note', 'late note'))
        .thenThrows(IllegalStateError, new RegExp(`A tour that is ${tourStatusName(status)}`)),
    );
  }
  t.test('allowed before the driver rolls', async () =>
    given(at7)
      .when(addEvent(shipper, 'note', 'Dock 3'))
      .then(added('note', 'Dock 3', null, shipper)),
  );
});

t.test('RateTour', async (t) => {
  const rated = (
    side: 'shipper' | 'carrier',
    ratings: RatingEntry[],
    actor: TourActor,
  ): TourEvent => ({
    type: 'TourRated',
    data: {
      tourId,
      side,
      ratedOrganizationId: side === 'shipper' ? carrierOrganizationId : shipperOrganizationId,
      ratings,
      ratedBy: actor.userId!,
      ratedAt: now,
    },
  });
  t.test('the shipper rates the carrier', async () =>
    given(at4)
      .when(rate(shipper, carrierRatings))
      .then([rated('shipper', carrierRatings, shipper)]),
  );
  t.test('the carrier rates the shipper, in any order', async () =>
    given(at4)
      .when(rate(carrier, [...shipperRatings].reverse()))
      .then([rated('carrier', shipperRatings, carrier)]),
  );
  t.test('each side once', async () =>
    given([...at4, rated('shipper', carrierRatings, shipper)])
      .when(rate(shipper, carrierRatings))
      .thenThrows(ConflictError, /^You have already rated this tour$/),
  );
  t.test('one side having rated does not close the other', async (t) => {
    given([...at4, rated('shipper', carrierRatings, shipper)])
      .when(rate(carrier, shipperRatings))
      .then([rated('carrier', shipperRatings, carrier)]);
    const tour = fold([...at4, rated('shipper', carrierRatings, shipper)]);
    t.same(tour.exists && tour.ratings, { shipper: carrierRatings, carrier: null });
  });
  for (const status of [7, 8, 2, 3, 9, 10, 5] as TourStatusId[]) {
    t.test(`closed while ${tourStatusName(status)}`, async () =>
      given(historyAt[status])
        .when(rate(shipper, carrierRatings))
        .thenThrows(IllegalStateError, /^Ratings open once the tour is delivered$/),
    );
  }
  for (const [name, actor] of Object.entries({ driver, admin, system })) {
    t.test(`the ${name} does not rate`, async () =>
      given(at4).when(rate(actor, carrierRatings)).thenThrows(ForbiddenError),
    );
  }
  const wrongSets: Record<string, RatingEntry[]> = {
    'a missing criterion': carrierRatings.slice(1),
    'a criterion twice': [...carrierRatings.slice(1), { criteria: 2, rating: 3 }],
    "the other side's criteria": shipperRatings,
    'an extra criterion': [...carrierRatings, { criteria: 5, rating: 3 }],
    nothing: [],
  };
  for (const [name, ratings] of Object.entries(wrongSets)) {
    t.test(`refuses ${name}`, async (t) => {
      given(at4)
        .when(rate(shipper, ratings))
        .thenThrows(ValidationError, /^Rate every criterion once$/);
      t.throws(() => tourDecider.decide(rate(shipper, ratings), fold(at4)), {
        errors: [{ path: 'ratings', message: 'Rate every criterion once' }],
      });
    });
  }
  for (const value of [0, 0.25, 5.5, 4.75, -1, Number.NaN]) {
    t.test(`refuses the value ${value}`, async (t) => {
      const ratings = carrierRatings.map((entry, index) =>
        index === 2 ? { ...entry, rating: value } : entry,
      );
      t.throws(() => tourDecider.decide(rate(shipper, ratings), fold(at4)), {
        constructor: ValidationError,
        errors: [{ path: 'ratings.2.rating', message: 'Ratings go from 0.5 to 5 in steps of 0.5' }],
      });
    });
  }
  t.test('accepts every half step from 0.5 to 5', async () => {
    for (let value = 0.5; value <= 5; value += 0.5) {
      const ratings = carrierRatings.map((entry) => ({ ...entry, rating: value }));
      given(at4)
        .when(rate(shipper, ratings))
        .then([rated('shipper', ratings, shipper)]);
    }
  });
});

t.test('CancelTour', async (t) => {
  const canceledBy = (from: TourStatusId, actor: TourActor): TourEvent[] => [
    {
      type: 'TourCanceled',
      data: {
        tourId,
        from,
        message: 'Shipment called off',
        party: actor.party,
        canceledBy: actor.userId,
        canceledAt: now,
      },
    },
    statusEntry(5, 'Shipment called off', actor.userId),
  ];
  for (const [name, actor] of Object.entries({ shipper, carrier, admin })) {
    for (const status of [7, 8, 2, 3] as TourStatusId[]) {
      t.test(`the ${name} cancels while ${tourStatusName(status)}`, async () =>
        given(historyAt[status]).when(cancel(actor)).then(canceledBy(status, actor)),
      );
    }
    for (const status of [9, 10, 4, 5] as TourStatusId[]) {
      t.test(`the ${name} may not cancel once ${tourStatusName(status)}`, async () =>
        given(historyAt[status])
          .when(cancel(actor))
          .thenThrows(
            IllegalStateError,
            new RegExp(`^A tour that is ${tourStatusName(status)} cannot be canceled$`),
          ),
      );
    }
  }
  for (const [name, actor] of Object.entries({ driver, system })) {
    t.test(`the ${name} may not cancel`, async () =>
      given(at3)
        .when(cancel(actor))
        .thenThrows(ForbiddenError, /^Only the shipper or the carrier can cancel a tour$/),
    );
  }
  t.test('needs a message', async () =>
    given(at3)
      .when(cancel(carrier, '  '))
      .thenThrows(ValidationError, /^Please enter a message$/),
  );
  t.test('leaves the tour Canceled', async (t) => {
    const tour = fold([...at3, ...canceledBy(3, carrier)]);
    t.ok(tour.exists && tour.status === TourStatus.Canceled && tour.updatedAt === now);
  });
});

t.test('ObservePosition: the geofence', async (t) => {
  // One degree of latitude is about 111 km: 0.0009° is about 100 m.
  const nearPickup = (meters: number) =>
    observe(
      pickup.latitude + (meters / 100) * 0.0009,
      pickup.longitude,
      `2026-12-02T09:00:${String(meters % 60).padStart(2, '0')}.000Z`,
    );
  const far = observe(41.5, -87.4, '2026-12-02T09:30:00.000Z');
  const atDropoff = observe(
    dropoff.latitude - 0.0018,
    dropoff.longitude,
    '2026-12-02T13:00:00.000Z',
  );
  /** Decides and applies each command in turn, as the handler does position after position. */
  const drive = (history: TourEvent[], commands: TourCommand[]): TourEvent[] => {
    let state = fold(history);
    const events: TourEvent[] = [];
    for (const command of commands) {
      const decided = tourDecider.decide(command, state);
      state = decided.reduce(tourDecider.evolve, state);
      events.push(...decided);
    }
    return events;
  };
  const stopEntry = (type: 'arrived' | 'departed', stop: TourStop, at: string): TourEventAdded => ({
    type: 'TourEventAdded',
    data: {
      tourId,
      eventId: `${tourId}-${type}-${stop.id}`,
      type,
      message: `${type === 'arrived' ? 'Arrived at' : 'Departed'} ${stop.name}`,
      stopId: stop.id,
      addedBy: null,
      at,
    },
  });
  const recordedAt = (command: TourCommand) =>
    (command as Extract<TourCommand, { type: 'ObservePosition' }>).data.recordedAt;
  const toInTransit = (at: string): TourEvent[] => [
    {
      type: 'TourStatusChanged',
      data: {
        tourId,
        from: 3,
        to: 9,
        message: 'Departed Chicago DC',
        changedBy: null,
        party: 'system',
        changedAt: at,
      },
    },
    statusEntry(9, 'Departed Chicago DC', null, at),
  ];

  t.test(
    "entering a stop's fence records the arrival, dated when the position was taken",
    async () =>
      given(at2)
        .when(nearPickup(200))
        .then([stopEntry('arrived', pickup, recordedAt(nearPickup(200)))]),
  );
  t.test('a position at no stop records nothing', async () => given(at3).when(far).then([]));
  t.test('the fence is 500 m: 550 m away is not at the stop', async () =>
    given(at3).when(nearPickup(550)).then([]),
  );
  t.test('moving inside the fence records the arrival once (GPS jitter)', async (t) => {
    t.same(drive(at2, [nearPickup(100), nearPickup(450), nearPickup(300), nearPickup(20)]), [
      stopEntry('arrived', pickup, recordedAt(nearPickup(100))),
    ]);
  });
  t.test('leaving the pickup while Ready for pickup records the departure only', async (t) => {
    t.same(drive(at2, [nearPickup(100), far, nearPickup(400), far]), [
      stopEntry('arrived', pickup, recordedAt(nearPickup(100))),
      stopEntry('departed', pickup, recordedAt(far)),
    ]);
  });
  t.test('leaving the first pickup moves a Dispatched tour to In Transit', async (t) => {
    const events = drive(at3, [nearPickup(100), nearPickup(300), far]);
    t.same(events, [
      stopEntry('arrived', pickup, recordedAt(nearPickup(100))),
      stopEntry('departed', pickup, recordedAt(far)),
      ...toInTransit(recordedAt(far)),
    ]);
    const tour = fold([...at3, ...events]);
    t.ok(tour.exists && tour.status === TourStatus.InTransit && tour.insideStopId === null);
    t.same(tour.exists && [tour.arrivedStopIds, tour.departedStopIds], [[pickup.id], [pickup.id]]);
  });
  t.test('coming back to the pickup and leaving again records nothing more', async (t) => {
    const first = drive(at3, [nearPickup(100), far]);
    t.same(drive([...at3, ...first], [nearPickup(200), far, nearPickup(50)]), []);
  });
  t.test('arriving at and leaving the dropoff while In Transit', async (t) => {
    const leaveDropoff = observe(39.5, -86.0, '2026-12-02T15:00:00.000Z');
    t.same(drive(at9, [atDropoff, leaveDropoff]), [
      stopEntry('arrived', dropoff, recordedAt(atDropoff)),
      stopEntry('departed', dropoff, recordedAt(leaveDropoff)),
    ]);
  });
  t.test('positions count while Pending Delivery Confirmation', async () =>
    given(at10)
      .when(atDropoff)
      .then([stopEntry('arrived', dropoff, recordedAt(atDropoff))]),
  );
  t.test(
    "a jump from the pickup straight into the dropoff's fence records both, in order",
    async (t) => {
      const events = drive(at3, [nearPickup(0), atDropoff]);
      t.same(events, [
        stopEntry('arrived', pickup, recordedAt(nearPickup(0))),
        stopEntry('departed', pickup, recordedAt(atDropoff)),
        ...toInTransit(recordedAt(atDropoff)),
        stopEntry('arrived', dropoff, recordedAt(atDropoff)),
      ]);
      const tour = fold([...at3, ...events]);
      t.equal(tour.exists && tour.insideStopId, dropoff.id);
    },
  );
  t.test(
    'an arrival the driver recorded by hand is not recorded again; leaving still counts',
    async (t) => {
      const manual: TourEvent = {
        type: 'TourEventAdded',
        data: {
          tourId,
          eventId: 'event-1',
          type: 'arrived',
          message: 'Here',
          stopId: pickup.id,
          addedBy: driverId,
          at: now,
        },
      };
      t.same(drive([...at3, manual], [nearPickup(100), far]), [
        stopEntry('departed', pickup, recordedAt(far)),
        ...toInTransit(recordedAt(far)),
      ]);
    },
  );
  for (const status of [7, 8, 4, 5] as TourStatusId[]) {
    t.test(`positions are ignored while ${tourStatusName(status)}`, async () =>
      given(historyAt[status]).when(nearPickup(100)).then([]),
    );
  }
});

t.test(
  'a whole run, from the accepted bid to both ratings, writes a timeline with distinct ids',
  async (t) => {
    const { openedAt: _openedAt, ...openData } = tourOpened.data;
    const commands: TourCommand[] = [
      { type: 'OpenTour', data: { ...openData, now: opened } },
      confirm(),
      assign(carrier),
      change(driver, 3),
      observe(pickup.latitude, pickup.longitude),
      addEvent(driver, 'note', 'Loaded'),
      observe(41.5, -87.4),
      observe(dropoff.latitude, dropoff.longitude),
      change(driver, 10, 'Unloaded'),
      change(shipper, 4),
      rate(shipper, carrierRatings),
      rate(carrier, shipperRatings),
    ];
    let state = tourDecider.initialState();
    const events: TourEvent[] = [];
    for (const command of commands) {
      const decided = tourDecider.decide(command, state);
      state = decided.reduce(tourDecider.evolve, state);
      events.push(...decided);
    }
    const timeline = events.filter(
      (event): event is TourEventAdded => event.type === 'TourEventAdded',
    );
    t.same(
      timeline.map((event) => event.data.type),
      ['status', 'status', 'arrived', 'note', 'departed', 'status', 'arrived', 'status', 'status'],
    );
    t.equal(new Set(timeline.map((event) => event.data.eventId)).size, timeline.length);
    t.ok(
      state.exists &&
        state.status === TourStatus.Delivered &&
        state.ratings.shipper !== null &&
        state.ratings.carrier !== null,
    );
  },
);
