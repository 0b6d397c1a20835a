import assert from 'node:assert/strict';
import t from 'tap';
import { TourStatus, type TourStatusId } from '../catalog.ts';
import {
  ConflictError,
  IllegalStateError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { decideLoad, evolveLoad, initialLoad, loadDecider, loadStatusName } from './load.decide.ts';
import type {
  AcceptOfferForLoad,
  CancelLoad,
  ExtendExpiration,
  Load,
  LoadCommand,
  LoadDetails,
  LoadEvent,
  LoadExpirationExtended,
  LoadPosted,
  PostLoad,
  UpdateLoad,
} from './load.types.ts';

const given = specFor(loadDecider);
const loadId = '7d4f3a2e-1b0c-4d5e-8f6a-9b8c7d6e5f40';
const shipper = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const otherShipper = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const carrier = 'c0ffee00-1111-4222-8333-444455556666';
const userId = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const offerId = 'aaaa1111-2222-5333-8444-555566667777';
const tourId = 'bbbb1111-2222-4333-8444-555566667777';

// The timeline of these tests: posted at `now`, offers open until `expiration`, pickup after it.
const now = '2026-12-01T10:00:00.000Z';
const later = '2026-12-02T10:00:00.000Z';
const expiration = '2026-12-03T10:00:00.000Z';
const afterExpiration = '2026-12-04T10:00:00.000Z';
const newExpiration = '2026-12-04T20:00:00.000Z';
const pickupStart = '2026-12-05T08:00:00.000Z';

const details: LoadDetails = {
  pickupStart,
  pickupEnd: null,
  pickupTimezone: 'America/Chicago',
  dropoffStart: '2026-12-06T15:00:00.000Z',
  dropoffEnd: null,
  dropoffTimezone: 'America/New_York',
  expiration,
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  rate: 2500,
  rateTypeId: 1,
  carriersSortingTypeId: null,
  accessories: [1],
  equipment: [15],
  description: 'Palletized paper',
  weight: 40000,
  commodity: 'Paper',
  refNumber: 'PO-991',
  stops: [
    {
      id: 's1',
      locationType: 1,
      address: 'Chicago, IL 60607',
      city: 'Chicago',
      state: 'IL',
      name: 'Mill Dock',
      latitude: 41.87,
      longitude: -87.65,
      contactName: null,
      contactPhone: null,
      number: 'P-1',
    },
    {
      id: 's2',
      locationType: 4,
      address: 'Newark, NJ 07102',
      city: 'Newark',
      state: 'NJ',
      name: 'Print Works',
      latitude: 40.73,
      longitude: -74.17,
      contactName: null,
      contactPhone: null,
      number: 'D-1',
    },
  ],
};
const editedDetails: LoadDetails = {
  ...details,
  weight: 42000,
  description: 'Palletized paper, 22 pallets',
};

const postLoad = (changes: Partial<LoadDetails> = {}, at = now): PostLoad => ({
  type: 'PostLoad',
  data: {
    loadId,
    guid: 'L-000123',
    organizationId: shipper,
    userId,
    details: { ...details, ...changes },
    now: at,
  },
});
const updateLoad = (
  changes: Partial<LoadDetails> = {},
  by: string | null = shipper,
  at = later,
): UpdateLoad => ({
  type: 'UpdateLoad',
  data: { loadId, by, userId, details: { ...editedDetails, ...changes }, now: at },
});
const extend = (
  to = newExpiration,
  at = afterExpiration,
  by: string | null = shipper,
): ExtendExpiration => ({
  type: 'ExtendExpiration',
  data: { loadId, by, expiration: to, expirationTimezone: 'America/New_York', now: at },
});
const expire = (at = afterExpiration): LoadCommand => ({
  type: 'ExpireLoad',
  data: { loadId, now: at },
});
const cancel = (
  message = '  Shipment moved to rail  ',
  tourStatus: TourStatusId | null = null,
  by: string | null = shipper,
): CancelLoad => ({
  type: 'CancelLoad',
  data: { loadId, by, message, tourStatus, now: later },
});
const accept = (at = later, by: string | null = shipper, id = offerId): AcceptOfferForLoad => ({
  type: 'AcceptOfferForLoad',
  data: {
    loadId,
    by,
    proposalId: id,
    carrierOrganizationId: carrier,
    price: 2400,
    tourId,
    now: at,
  },
});
const sign = (id = offerId): LoadCommand => ({
  type: 'SignContract',
  data: { loadId, proposalId: id, contractFileId: 'file-contract', now: later },
});
const complete = (id = tourId): LoadCommand => ({
  type: 'CompleteLoad',
  data: { loadId, tourId: id, now: later },
});

const posted: LoadPosted = {
  type: 'LoadPosted',
  data: {
    loadId,
    guid: 'L-000123',
    shipperOrganizationId: shipper,
    postedBy: userId,
    details,
    postedAt: now,
  },
};
const updated: LoadEvent = {
  type: 'LoadUpdated',
  data: { loadId, details: editedDetails, updatedBy: userId, updatedAt: later },
};
const expired: LoadEvent = { type: 'LoadExpired', data: { loadId, expiredAt: afterExpiration } };
const extendedEvent = (reopened: boolean): LoadExpirationExtended => ({
  type: 'LoadExpirationExtended',
  data: {
    loadId,
    expiration: newExpiration,
    expirationTimezone: 'America/New_York',
    reopened,
    extendedAt: afterExpiration,
  },
});
const canceledEvent = (previousStatus: 4 | 5 | 6 | 8): LoadEvent => ({
  type: 'LoadCanceled',
  data: { loadId, message: 'Shipment moved to rail', previousStatus, canceledAt: later },
});
const accepted: LoadEvent = {
  type: 'LoadProposalAccepted',
  data: {
    loadId,
    proposalId: offerId,
    carrierOrganizationId: carrier,
    price: 2400,
    tourId,
    acceptedAt: later,
  },
};
const signed: LoadEvent = {
  type: 'LoadContractSigned',
  data: { loadId, proposalId: offerId, contractFileId: 'file-contract', signedAt: later },
};
const completed: LoadEvent = {
  type: 'LoadCompleted',
  data: { loadId, tourId, completedAt: later },
};

const paused = [posted, expired];
const acceptedLoad = [posted, accepted];
const signedLoad = [posted, accepted, signed];
const completedLoad = [posted, accepted, signed, completed];
const canceledLoad = [posted, canceledEvent(4)];

const stateAfter = (events: LoadEvent[]): Load => events.reduce(evolveLoad, initialLoad());

/** A ValidationError naming the form field, so the client can show the message under it. */
const throwsField = (events: LoadEvent[], command: LoadCommand, path: string, message: string) =>
  assert.throws(
    () => decideLoad(command, stateAfter(events)),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError, `expected ValidationError, got ${String(error)}`);
      assert.equal(error.message, message);
      assert.deepEqual(error.errors, [{ path, message }]);
      return true;
    },
  );

t.test('loadStatusName gives the catalog names of the load statuses', async (t) => {
  t.same(
    [4, 5, 6, 7, 8, 9].map((status) => loadStatusName(status as 4)),
    ['Created', 'Accepted', 'Signed', 'Canceled', 'Paused', 'Completed'],
  );
});

t.test('PostLoad', async (t) => {
  t.test('posts a Created load', async () => given([]).when(postLoad()).then([posted]));
  t.test('the posted load is Created, with nothing accepted yet', async (t) => {
    t.match(stateAfter([posted]), {
      posted: true,
      loadId,
      guid: 'L-000123',
      shipperOrganizationId: shipper,
      status: 4,
      details,
      acceptedProposalId: null,
      carrierOrganizationId: null,
      price: null,
      tourId: null,
      contractFileId: null,
      cancelMessage: null,
      updatedAt: now,
    });
  });
  t.test('an expiration equal to the pickup start is allowed', async () =>
    given([])
      .when(postLoad({ expiration: pickupStart }))
      .then([
        { ...posted, data: { ...posted.data, details: { ...details, expiration: pickupStart } } },
      ]),
  );
  t.test('refuses to post the same load twice', async () =>
    given([posted])
      .when(postLoad())
      .thenThrows(ConflictError, /L-000123 is already posted/),
  );
  t.test('refuses an expiration that is not after now', async () =>
    throwsField(
      [],
      postLoad({ expiration: now }),
      'expiration',
      "Expiration can't be before current date and time.",
    ),
  );
  t.test('refuses a pickup start before now', async () =>
    throwsField(
      [],
      postLoad({ pickupStart: '2026-12-01T09:59:00.000Z', expiration: '2026-12-01T10:30:00.000Z' }),
      'pickupTimestampStart',
      "Start can't be before current date and time.",
    ),
  );
  t.test('refuses an expiration after the pickup start', async () =>
    throwsField(
      [],
      postLoad({ expiration: '2026-12-05T08:01:00.000Z' }),
      'expiration',
      "Expiration can't be after pickup start date",
    ),
  );
  t.test('compares instants, not texts: an offset time after now is accepted', async () =>
    given([])
      .when(postLoad({ expiration: '2026-12-01T05:30:00-05:00' }))
      .then([
        {
          ...posted,
          data: {
            ...posted.data,
            details: { ...details, expiration: '2026-12-01T05:30:00-05:00' },
          },
        },
      ]),
  );
  t.test('refuses an expiration that is not a date', async () =>
    throwsField(
      [],
      postLoad({ expiration: 'soon' }),
      'expiration',
      "Expiration can't be before current date and time.",
    ),
  );
});

t.test('a load that was never posted is not found, whatever the command', async (t) => {
  for (const command of [
    updateLoad(),
    extend(),
    expire(),
    cancel(),
    accept(),
    sign(),
    complete(),
  ]) {
    t.test(command.type, async () =>
      given([])
        .when(command)
        .thenThrows(NotFoundError, /^Load not found$/),
    );
  }
});

t.test(
  "another organization's load is not found (404, not 403); a Superadmin (by null) may act",
  async (t) => {
    const asOther = [
      updateLoad({}, otherShipper),
      extend(newExpiration, later, otherShipper),
      cancel(undefined, null, otherShipper),
      accept(later, otherShipper),
    ];
    for (const command of asOther) {
      t.test(`${command.type} by another shipper`, async () =>
        given([posted])
          .when(command)
          .thenThrows(NotFoundError, /^Load not found$/),
      );
    }
    t.test('UpdateLoad by a Superadmin', async () =>
      given([posted]).when(updateLoad({}, null)).then([updated]),
    );
    t.test('ExtendExpiration by a Superadmin', async () =>
      given(paused)
        .when(extend(newExpiration, afterExpiration, null))
        .then([extendedEvent(true)]),
    );
    t.test('CancelLoad by a Superadmin', async () =>
      given([posted])
        .when(cancel(undefined, null, null))
        .then([canceledEvent(4)]),
    );
    t.test('AcceptOfferForLoad by a Superadmin', async () =>
      given([posted]).when(accept(later, null)).then([accepted]),
    );
  },
);

t.test('UpdateLoad', async (t) => {
  t.test('edits a Created load', async () => given([posted]).when(updateLoad()).then([updated]));
  t.test('edits a Paused load, which stays Paused', async (t) => {
    const edit = updateLoad({ expiration: newExpiration }, shipper, afterExpiration);
    const event: LoadEvent = {
      type: 'LoadUpdated',
      data: {
        loadId,
        details: { ...editedDetails, expiration: newExpiration },
        updatedBy: userId,
        updatedAt: afterExpiration,
      },
    };
    given(paused).when(edit).then([event]);
    t.match(stateAfter([...paused, event]), {
      status: 8,
      details: { weight: 42000, expiration: newExpiration },
      updatedAt: afterExpiration,
    });
  });
  for (const [name, events] of [
    ['Accepted', acceptedLoad],
    ['Signed', signedLoad],
    ['Canceled', canceledLoad],
    ['Completed', completedLoad],
  ] as const) {
    t.test(`refuses a load that is ${name}`, async () =>
      given(events)
        .when(updateLoad())
        .thenThrows(IllegalStateError, new RegExp(`^A load that is ${name} cannot be edited$`)),
    );
  }
  t.test('refuses an expiration that has passed', async () =>
    throwsField(
      [posted],
      updateLoad({ expiration: now }),
      'expiration',
      "Expiration can't be before current date and time.",
    ),
  );
  t.test('refuses a pickup start that has passed', async () =>
    throwsField(
      [posted],
      updateLoad({ pickupStart: now }),
      'pickupTimestampStart',
      "Start can't be before current date and time.",
    ),
  );
  t.test('refuses an expiration after the pickup start', async () =>
    throwsField(
      [posted],
      updateLoad({ expiration: '2026-12-05T09:00:00.000Z' }),
      'expiration',
      "Expiration can't be after pickup start date",
    ),
  );
});

t.test('ExtendExpiration', async (t) => {
  t.test('reopens a Paused load as Created with the new expiration', async (t) => {
    given(paused)
      .when(extend())
      .then([extendedEvent(true)]);
    t.match(stateAfter([...paused, extendedEvent(true)]), {
      status: 4,
      details: { expiration: newExpiration, expirationTimezone: 'America/New_York' },
      updatedAt: afterExpiration,
    });
  });
  t.test('moves the expiration of a Created load without reopening it', async (t) => {
    const extendEarly = extend(newExpiration, later);
    const event: LoadEvent = {
      ...extendedEvent(false),
      data: { ...extendedEvent(false).data, extendedAt: later },
    };
    given([posted]).when(extendEarly).then([event]);
    t.match(stateAfter([posted, event]), { status: 4, details: { expiration: newExpiration } });
  });
  for (const [name, events] of [
    ['Accepted', acceptedLoad],
    ['Signed', signedLoad],
    ['Canceled', canceledLoad],
    ['Completed', completedLoad],
  ] as const) {
    t.test(`refuses a load that is ${name}`, async () =>
      given(events)
        .when(extend())
        .thenThrows(
          IllegalStateError,
          new RegExp(`^A load that is ${name} cannot have its expiration extended$`),
        ),
    );
  }
  t.test('refuses a new expiration that is not after now', async () =>
    throwsField(
      paused,
      extend(afterExpiration),
      'newExpiration',
      "Expiration can't be before current date and time.",
    ),
  );
  t.test('refuses a new expiration after the pickup start', async () =>
    throwsField(
      paused,
      extend('2026-12-05T08:00:01.000Z'),
      'newExpiration',
      "Expiration can't be after pickup start date",
    ),
  );
});

t.test('ExpireLoad', async (t) => {
  t.test('pauses a Created load whose expiration has passed', async (t) => {
    given([posted]).when(expire()).then([expired]);
    t.match(stateAfter(paused), { status: 8, updatedAt: afterExpiration });
  });
  t.test('pauses it at the very instant of its expiration', async () =>
    given([posted])
      .when(expire(expiration))
      .then([{ type: 'LoadExpired', data: { loadId, expiredAt: expiration } }]),
  );
  t.test('does nothing before the expiration', async () =>
    given([posted]).when(expire(later)).then([]),
  );
  t.test('does nothing to a load that is already Paused (the scheduler may run twice)', async () =>
    given(paused).when(expire()).then([]),
  );
  for (const [name, events] of [
    ['Accepted', acceptedLoad],
    ['Signed', signedLoad],
    ['Canceled', canceledLoad],
    ['Completed', completedLoad],
  ] as const) {
    t.test(`does nothing to a load that is ${name}`, async () =>
      given(events).when(expire()).then([]),
    );
  }
});

t.test('CancelLoad', async (t) => {
  t.test('cancels a Created load with the trimmed message', async (t) => {
    given([posted])
      .when(cancel())
      .then([canceledEvent(4)]);
    t.match(stateAfter(canceledLoad), {
      status: 7,
      cancelMessage: 'Shipment moved to rail',
      updatedAt: later,
    });
  });
  t.test('cancels a Paused load', async () =>
    given(paused)
      .when(cancel())
      .then([canceledEvent(8)]),
  );
  t.test('cancels an Accepted load whose tour has not started', async () =>
    given(acceptedLoad)
      .when(cancel(undefined, TourStatus.BidAccepted))
      .then([canceledEvent(5)]),
  );
  t.test('cancels a Signed load whose truck is on the way to the pickup', async () =>
    given(signedLoad)
      .when(cancel(undefined, TourStatus.Dispatched))
      .then([canceledEvent(6)]),
  );
  for (const [id, name] of [
    [TourStatus.InTransit, 'In Transit'],
    [TourStatus.PendingDeliveryConfirmation, 'Pending Delivery Confirmation'],
    [TourStatus.Delivered, 'Delivered'],
  ] as const) {
    t.test(`refuses a load whose tour is ${name}`, async () =>
      given(signedLoad)
        .when(cancel(undefined, id))
        .thenThrows(IllegalStateError, new RegExp(`^A load that is ${name} cannot be canceled$`)),
    );
  }
  t.test('refuses a load that is already Canceled', async () =>
    given(canceledLoad)
      .when(cancel())
      .thenThrows(IllegalStateError, /^A load that is Canceled cannot be canceled$/),
  );
  t.test('refuses a Completed load', async () =>
    given(completedLoad)
      .when(cancel())
      .thenThrows(IllegalStateError, /^A load that is Completed cannot be canceled$/),
  );
  t.test('requires a message', async () =>
    throwsField([posted], cancel('   '), 'message', 'Please enter a message'),
  );
});

t.test('AcceptOfferForLoad', async (t) => {
  t.test('accepts an offer on a Created load before its expiration', async (t) => {
    given([posted]).when(accept()).then([accepted]);
    t.match(stateAfter(acceptedLoad), {
      status: 5,
      acceptedProposalId: offerId,
      carrierOrganizationId: carrier,
      price: 2400,
      tourId,
      updatedAt: later,
    });
  });
  t.test('refuses once the expiration is reached, even before the scheduler paused it', async () =>
    given([posted])
      .when(accept(expiration))
      .thenThrows(IllegalStateError, /^This load is no longer open for offers$/),
  );
  t.test('refuses a Paused load, naming its status', async () =>
    given(paused)
      .when(accept(afterExpiration))
      .thenThrows(IllegalStateError, /^This load is Paused and no longer open for offers$/),
  );
  t.test('refuses a Canceled load, also one canceled after an acceptance', async () => {
    given(canceledLoad)
      .when(accept())
      .thenThrows(IllegalStateError, /^This load is Canceled and no longer open for offers$/);
    given([...acceptedLoad, canceledEvent(5)])
      .when(accept())
      .thenThrows(IllegalStateError, /Canceled/);
  });
  t.test('refuses a second acceptance (two accepts racing: the second loses)', async () =>
    given(acceptedLoad)
      .when(accept(later, shipper, 'cccc1111-2222-5333-8444-555566667777'))
      .thenThrows(ConflictError, /^This load already has an accepted offer$/),
  );
  t.test('refuses an acceptance on a Signed load as a conflict too', async () =>
    given(signedLoad)
      .when(accept())
      .thenThrows(ConflictError, /already has an accepted offer/),
  );
});

t.test('SignContract', async (t) => {
  t.test('signs the accepted offer', async (t) => {
    given(acceptedLoad).when(sign()).then([signed]);
    t.match(stateAfter(signedLoad), { status: 6, contractFileId: 'file-contract' });
  });
  t.test('refuses a contract of another offer', async () =>
    given(acceptedLoad)
      .when(sign('cccc1111-2222-5333-8444-555566667777'))
      .thenThrows(IllegalStateError, /^Only the accepted offer can sign/),
  );
  t.test('refuses a load with no accepted offer', async () =>
    given([posted])
      .when(sign())
      .thenThrows(IllegalStateError, /^A load that is Created cannot be signed$/),
  );
  t.test('refuses a second signature', async () =>
    given(signedLoad)
      .when(sign())
      .thenThrows(IllegalStateError, /^A load that is Signed cannot be signed$/),
  );
});

t.test('CompleteLoad', async (t) => {
  t.test('completes a Signed load through its tour', async (t) => {
    given(signedLoad).when(complete()).then([completed]);
    t.match(stateAfter(completedLoad), { status: 9, updatedAt: later });
  });
  t.test('refuses another tour', async () =>
    given(signedLoad)
      .when(complete('dddd1111-2222-4333-8444-555566667777'))
      .thenThrows(IllegalStateError, /^Only the tour of this load/),
  );
  t.test('refuses a load whose contract is not signed', async () =>
    given(acceptedLoad)
      .when(complete())
      .thenThrows(IllegalStateError, /^A load that is Accepted cannot be completed$/),
  );
  t.test('refuses a load completed already', async () =>
    given(completedLoad)
      .when(complete())
      .thenThrows(IllegalStateError, /^A load that is Completed cannot be completed$/),
  );
});

t.test('evolve', async (t) => {
  t.test('ignores events before the load was posted', async (t) => {
    t.same(stateAfter([updated, expired, accepted]), { posted: false });
  });
  t.test("updatedAt follows each event's time", async (t) => {
    const at =
      (iso: string) =>
      (event: LoadEvent): LoadEvent => {
        const data = { ...event.data } as Record<string, unknown>;
        for (const key of [
          'updatedAt',
          'extendedAt',
          'expiredAt',
          'canceledAt',
          'acceptedAt',
          'signedAt',
          'completedAt',
        ])
          if (key in data) data[key] = iso;
        return { ...event, data } as LoadEvent;
      };
    for (const event of [
      updated,
      expired,
      extendedEvent(false),
      canceledEvent(4),
      accepted,
      signed,
      completed,
    ]) {
      const state = stateAfter([posted, at('2026-12-01T12:34:56.000Z')(event)]);
      t.equal(state.posted && state.updatedAt, '2026-12-01T12:34:56.000Z', event.type);
    }
  });
});

t.test('Book Now: a carrier books the load at its Book Now price', async (t) => {
  const withPrice: LoadPosted = {
    ...posted,
    data: { ...posted.data, details: { ...details, bookNowPrice: 2750 } },
  };
  const book = (at = later, id = offerId): LoadCommand => ({
    type: 'BookLoad',
    data: { loadId, proposalId: id, carrierOrganizationId: carrier, userId, tourId, now: at },
  });
  const booked: LoadEvent = {
    type: 'LoadProposalAccepted',
    data: {
      loadId,
      proposalId: offerId,
      carrierOrganizationId: carrier,
      price: 2750,
      tourId,
      acceptedAt: later,
      terms: null,
      bookedNow: true,
      bookedBy: userId,
    },
  };
  t.test('at the load’s price, as an acceptance marked bookedNow', async () =>
    given([withPrice]).when(book()).then([booked]),
  );
  t.test('a second booking, or one after an accepted offer, is a conflict', async () => {
    given([withPrice, booked])
      .when(book(later, 'cccc1111-2222-5333-8444-555566667777'))
      .thenThrows(ConflictError, /^This load has already been booked$/);
    given([withPrice, accepted])
      .when(book())
      .thenThrows(ConflictError, /^This load has already been booked$/);
  });
  t.test('and an accept after a booking is refused as for any accepted offer', async () =>
    given([withPrice, booked])
      .when(accept())
      .thenThrows(ConflictError, /already has an accepted offer/),
  );
  t.test('a load without a Book Now price is refused naming the field', async () => {
    given([posted])
      .when(book())
      .thenThrows(ValidationError, /no Book Now price/);
    const withdrawn: LoadEvent = {
      type: 'LoadUpdated',
      data: {
        loadId,
        details: { ...details, bookNowPrice: null },
        updatedBy: userId,
        updatedAt: now,
      },
    };
    given([withPrice, withdrawn])
      .when(book())
      .thenThrows(ValidationError, /no Book Now price/);
  });
  t.test('only while the load is open', async () => {
    given([withPrice])
      .when(book(afterExpiration))
      .thenThrows(IllegalStateError, /no longer open for booking/);
    given([])
      .when(book())
      .thenThrows(NotFoundError, /^Load not found$/);
  });
  t.test('the state remembers who booked it', async () => {
    const state = [withPrice, booked].reduce(evolveLoad, initialLoad());
    assert.ok(state.posted);
    assert.equal(state.bookedBy, userId);
    assert.equal(state.price, 2750);
  });
});
