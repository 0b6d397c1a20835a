import t from 'tap';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import {
  evolveOffer,
  initialOffer,
  offerDecider,
  offerIdFor,
  offerStatusName,
  uuidV5,
} from './offer.decide.ts';
import type { DeclineReason, Offer, OfferCommand, OfferEvent, SubmitOffer } from './offer.types.ts';

const given = specFor(offerDecider);
const loadId = '7d4f3a2e-1b0c-4d5e-8f6a-9b8c7d6e5f40';
const shipper = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const carrier = 'c0ffee00-1111-4222-8333-444455556666';
const otherCarrier = 'c0ffee00-9999-4222-8333-444455556666';
const carrierUser = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const shipperUser = '1f0a2b3c-4d5e-4f6a-8b7c-9d0e1f2a3b4c';
const tourId = 'bbbb1111-2222-4333-8444-555566667777';
const offerId = offerIdFor(loadId, carrier);
const now = '2026-12-01T10:00:00.000Z';
const later = '2026-12-01T11:00:00.000Z';

const submit = (changes: Partial<SubmitOffer['data']> = {}): SubmitOffer => ({
  type: 'SubmitOffer',
  data: {
    proposalId: offerId,
    loadId,
    loadGuid: 'L-000123',
    loadOpen: true,
    shipperOrganizationId: shipper,
    carrierOrganizationId: carrier,
    userId: carrierUser,
    price: 2400,
    message: 'Can pick up early',
    eldTruckName: 'Truck 7',
    now,
    ...changes,
  },
});
const counter = (by: string | null = shipper, price = 2300, loadOpen = true): OfferCommand => ({
  type: 'CounterOffer',
  data: {
    proposalId: offerId,
    by,
    userId: shipperUser,
    loadOpen,
    price,
    message: 'Best we can do',
    now: later,
  },
});
const acceptCounter = (by: string | null = carrier, loadOpen = true): OfferCommand => ({
  type: 'AcceptCounter',
  data: { proposalId: offerId, by, userId: carrierUser, loadOpen, now: later },
});
const accept = (by: string | null = shipper): OfferCommand => ({
  type: 'AcceptOffer',
  data: { proposalId: offerId, by, userId: shipperUser, tourId, now: later },
});
const decline = (reason: DeclineReason = 'shipper', by: string | null = shipper): OfferCommand => ({
  type: 'DeclineOffer',
  data: {
    proposalId: offerId,
    by,
    userId: by === null ? null : shipperUser,
    reason,
    message: 'Too expensive',
    now: later,
  },
});
const withdraw = (by: string | null = carrier, message = 'Truck broke down'): OfferCommand => ({
  type: 'WithdrawOffer',
  data: { proposalId: offerId, by, userId: carrierUser, message, now: later },
});
const upload = (by: string | null = carrier, contractFileId = 'file-contract'): OfferCommand => ({
  type: 'UploadContract',
  data: { proposalId: offerId, by, userId: carrierUser, contractFileId, now: later },
});

const submitted: OfferEvent = {
  type: 'ProposalSubmitted',
  data: {
    proposalId: offerId,
    loadId,
    loadGuid: 'L-000123',
    shipperOrganizationId: shipper,
    carrierOrganizationId: carrier,
    submittedBy: carrierUser,
    price: 2400,
    message: 'Can pick up early',
    eldTruckName: 'Truck 7',
    submittedAt: now,
  },
};
const revised: OfferEvent = {
  type: 'ProposalRevised',
  data: {
    proposalId: offerId,
    price: 2350,
    message: 'Lower price',
    eldTruckName: 'Truck 9',
    revisedBy: carrierUser,
    revisedAt: now,
  },
};
const countered: OfferEvent = {
  type: 'ProposalCountered',
  data: {
    proposalId: offerId,
    price: 2300,
    message: 'Best we can do',
    counteredBy: shipperUser,
    counteredAt: later,
  },
};
const counterAccepted: OfferEvent = {
  type: 'CounterAccepted',
  data: { proposalId: offerId, price: 2300, acceptedBy: carrierUser, acceptedAt: later },
};
const acceptedEvent = (price = 2400): OfferEvent => ({
  type: 'ProposalAccepted',
  data: { proposalId: offerId, loadId, tourId, price, acceptedBy: shipperUser, acceptedAt: later },
});
const declinedEvent = (
  reason: DeclineReason = 'shipper',
  declinedBy: string | null = shipperUser,
): OfferEvent => ({
  type: 'ProposalDeclined',
  data: { proposalId: offerId, reason, message: 'Too expensive', declinedBy, declinedAt: later },
});
const canceledEvent = (message = 'Truck broke down'): OfferEvent => ({
  type: 'ProposalCanceled',
  data: { proposalId: offerId, message, canceledBy: carrierUser, canceledAt: later },
});
const uploaded = (contractFileId = 'file-contract'): OfferEvent => ({
  type: 'ContractUploaded',
  data: { proposalId: offerId, loadId, contractFileId, uploadedBy: carrierUser, uploadedAt: later },
});

const open = [submitted];
const pending = [submitted, countered];
const acceptedOffer = [submitted, acceptedEvent()];
const confirmed = [submitted, acceptedEvent(), uploaded()];
const declined = [submitted, declinedEvent()];
const canceled = [submitted, canceledEvent()];

const stateAfter = (events: OfferEvent[]): Offer => events.reduce(evolveOffer, initialOffer());

const PRICE_MESSAGE = /^Please enter a price greater than 0$/;
const LOAD_CLOSED = /^This load is no longer open for offers$/;

t.test('uuidV5 and offerIdFor', async (t) => {
  t.test('matches the RFC 4122 example: www.example.com in the DNS namespace', async (t) => {
    t.equal(
      uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });
  t.test('gives one id per load and carrier, always the same, as a version 5 UUID', async (t) => {
    t.equal(offerIdFor(loadId, carrier), offerId);
    t.match(offerId, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    t.not(offerIdFor(loadId, otherCarrier), offerId);
    t.not(offerIdFor(shipper, carrier), offerId);
  });
  t.test('refuses a namespace that is not a UUID', async (t) => {
    t.throws(() => uuidV5('x', 'not-a-uuid'), /Not a UUID/);
  });
});

t.test('proposalStatusName gives the catalog names of the proposal statuses', async (t) => {
  t.same(
    [10, 11, 5, 14, 12, 7].map((status) => offerStatusName(status as 10)),
    ['Submitted Proposal', 'Pending Acceptance', 'Accepted', 'Confirmed', 'Declined', 'Canceled'],
  );
});

t.test('SubmitOffer', async (t) => {
  t.test('a first offer is Submitted', async (t) => {
    given([]).when(submit()).then([submitted]);
    t.match(stateAfter(open), {
      exists: true,
      proposalId: offerId,
      loadId,
      carrierOrganizationId: carrier,
      shipperOrganizationId: shipper,
      status: 10,
      price: 2400,
      counterPrice: null,
      tourId: null,
      contractFileId: null,
      submittedAt: now,
      updatedAt: now,
    });
  });
  t.test('a second submit revises an open offer', async () =>
    given(open)
      .when(submit({ price: 2350, message: 'Lower price', eldTruckName: 'Truck 9' }))
      .then([revised]),
  );
  t.test('a submit answering a counter offer revises it and drops the counter price', async (t) => {
    given(pending)
      .when(submit({ price: 2350, message: 'Lower price', eldTruckName: 'Truck 9' }))
      .then([revised]);
    t.match(stateAfter([...pending, revised]), {
      status: 10,
      price: 2350,
      counterPrice: null,
      message: 'Lower price',
      eldTruckName: 'Truck 9',
    });
  });
  for (const [name, events] of [
    ['Declined', declined],
    ['Canceled', canceled],
  ] as const) {
    t.test(`after a ${name} offer, a submit makes a fresh offer`, async (t) => {
      const again: OfferEvent = {
        ...submitted,
        data: { ...submitted.data, price: 2200, submittedAt: later },
      };
      given(events)
        .when(submit({ price: 2200, now: later }))
        .then([again]);
      t.match(stateAfter([...events, again]), {
        status: 10,
        price: 2200,
        submittedAt: later,
        updatedAt: later,
      });
    });
  }
  for (const [name, events] of [
    ['Accepted', acceptedOffer],
    ['Confirmed', confirmed],
  ] as const) {
    t.test(`refuses to change an offer that is ${name}`, async () =>
      given(events)
        .when(submit())
        .thenThrows(IllegalStateError, new RegExp(`^An offer that is ${name} cannot be changed$`)),
    );
  }
  t.test('refuses an offer on a load that is no longer open', async () =>
    given([])
      .when(submit({ loadOpen: false }))
      .thenThrows(IllegalStateError, LOAD_CLOSED),
  );
  t.test('refuses a revision on a load that is no longer open', async () =>
    given(open)
      .when(submit({ loadOpen: false }))
      .thenThrows(IllegalStateError, LOAD_CLOSED),
  );
  for (const price of [0, -5, 10.555, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.test(`refuses the price ${price}`, async (t) => {
      given([]).when(submit({ price })).thenThrows(ValidationError, PRICE_MESSAGE);
      t.throws(() => offerDecider.decide(submit({ price }), initialOffer()), {
        errors: [{ path: 'price' }],
      });
    });
  }
  t.test('accepts dollars and cents', async () =>
    given([])
      .when(submit({ price: 19.99 }))
      .then([{ ...submitted, data: { ...submitted.data, price: 19.99 } }]),
  );
  t.test('a submit for another load under this proposal id is not found', async () =>
    given(open)
      .when(submit({ loadId: shipper }))
      .thenThrows(NotFoundError, /^Proposal not found$/),
  );
  t.test("another carrier's submit on this proposal is not found", async () =>
    given(open)
      .when(submit({ carrierOrganizationId: otherCarrier }))
      .thenThrows(NotFoundError, /^Proposal not found$/),
  );
});

t.test('a proposal that was never submitted is not found, whatever the command', async (t) => {
  for (const command of [
    counter(),
    acceptCounter(),
    accept(),
    decline(),
    decline('otherAccepted', null),
    withdraw(),
    upload(),
  ]) {
    t.test(command.type, async () =>
      given([])
        .when(command)
        .thenThrows(NotFoundError, /^Proposal not found$/),
    );
  }
});

t.test('only the parties may act: anyone else gets 404', async (t) => {
  const shipperCommands = [
    ['CounterOffer by the carrier', counter(carrier)],
    ['AcceptOffer by the carrier', accept(carrier)],
    ['DeclineOffer by the carrier', decline('shipper', carrier)],
    ['CounterOffer by another carrier', counter(otherCarrier)],
  ] as const;
  for (const [name, command] of shipperCommands) {
    t.test(name, async () =>
      given(open)
        .when(command)
        .thenThrows(NotFoundError, /^Proposal not found$/),
    );
  }
  t.test('AcceptCounter by the shipper', async () =>
    given(pending)
      .when(acceptCounter(shipper))
      .thenThrows(NotFoundError, /^Proposal not found$/),
  );
  t.test('WithdrawOffer by another carrier', async () =>
    given(open)
      .when(withdraw(otherCarrier))
      .thenThrows(NotFoundError, /^Proposal not found$/),
  );
  t.test('UploadContract by the shipper', async () =>
    given(acceptedOffer)
      .when(upload(shipper))
      .thenThrows(NotFoundError, /^Proposal not found$/),
  );
  t.test('a Superadmin (by null) may act on either side', async () => {
    given(open).when(counter(null)).then([countered]);
    given(pending).when(acceptCounter(null)).then([counterAccepted]);
    given(open).when(accept(null)).then([acceptedEvent()]);
    given(open).when(withdraw(null)).then([canceledEvent()]);
    given(acceptedOffer).when(upload(null)).then([uploaded()]);
  });
});

t.test('CounterOffer', async (t) => {
  t.test('the shipper counters a submitted offer', async (t) => {
    given(open).when(counter()).then([countered]);
    t.match(stateAfter(pending), { status: 11, price: 2400, counterPrice: 2300, updatedAt: later });
  });
  t.test('refuses to counter twice before the carrier answers', async () =>
    given(pending)
      .when(counter())
      .thenThrows(IllegalStateError, /^An offer that is Pending Acceptance cannot be countered$/),
  );
  t.test('refuses an Accepted offer', async () =>
    given(acceptedOffer)
      .when(counter())
      .thenThrows(IllegalStateError, /^An offer that is Accepted cannot be countered$/),
  );
  t.test('refuses when the load is no longer open', async () =>
    given(open)
      .when(counter(shipper, 2300, false))
      .thenThrows(IllegalStateError, LOAD_CLOSED),
  );
  t.test('refuses a price of 0', async () =>
    given(open).when(counter(shipper, 0)).thenThrows(ValidationError, PRICE_MESSAGE),
  );
});

t.test('AcceptCounter', async (t) => {
  t.test('the carrier takes the counter price and the offer is Submitted again', async (t) => {
    given(pending).when(acceptCounter()).then([counterAccepted]);
    t.match(stateAfter([...pending, counterAccepted]), {
      status: 10,
      price: 2300,
      counterPrice: null,
    });
  });
  t.test('refuses an offer without a counter', async () =>
    given(open)
      .when(acceptCounter())
      .thenThrows(
        IllegalStateError,
        /^An offer that is Submitted Proposal has no counter offer to accept$/,
      ),
  );
  t.test('refuses a Declined offer', async () =>
    given(declined)
      .when(acceptCounter())
      .thenThrows(IllegalStateError, /^An offer that is Declined has no counter offer/),
  );
  t.test('refuses when the load is no longer open', async () =>
    given(pending).when(acceptCounter(carrier, false)).thenThrows(IllegalStateError, LOAD_CLOSED),
  );
});

t.test('AcceptOffer', async (t) => {
  t.test('the shipper accepts a submitted offer at its price', async (t) => {
    given(open).when(accept()).then([acceptedEvent()]);
    t.match(stateAfter(acceptedOffer), { status: 5, tourId, updatedAt: later });
  });
  t.test('an offer whose counter was accepted is accepted at the counter price', async () =>
    given([...pending, counterAccepted])
      .when(accept())
      .then([acceptedEvent(2300)]),
  );
  t.test('refuses while the carrier has not answered the counter offer', async () =>
    given(pending)
      .when(accept())
      .thenThrows(
        IllegalStateError,
        /^An offer that is Pending Acceptance cannot be accepted: the carrier has not answered the counter offer$/,
      ),
  );
  for (const [name, events] of [
    ['Declined', declined],
    ['Canceled', canceled],
    ['Accepted', acceptedOffer],
    ['Confirmed', confirmed],
  ] as const) {
    t.test(`refuses an offer that is ${name}`, async () =>
      given(events)
        .when(accept())
        .thenThrows(IllegalStateError, new RegExp(`^An offer that is ${name} cannot be accepted$`)),
    );
  }
});

t.test('DeclineOffer', async (t) => {
  t.test('the shipper declines a submitted offer', async (t) => {
    given(open).when(decline()).then([declinedEvent()]);
    t.match(stateAfter(declined), { status: 12, updatedAt: later });
  });
  t.test('the shipper declines an offer pending the counter answer', async (t) => {
    given(pending).when(decline()).then([declinedEvent()]);
    t.match(stateAfter([...pending, declinedEvent()]), { status: 12, counterPrice: null });
  });
  for (const [name, events] of [
    ['Accepted', acceptedOffer],
    ['Confirmed', confirmed],
    ['Declined', declined],
    ['Canceled', canceled],
  ] as const) {
    t.test(`the shipper cannot decline an offer that is ${name}`, async () =>
      given(events)
        .when(decline())
        .thenThrows(IllegalStateError, new RegExp(`^An offer that is ${name} cannot be declined$`)),
    );
  }
  for (const reason of ['otherAccepted', 'loadCanceled'] as const) {
    t.test(`${reason}: declines an open offer automatically`, async () => {
      given(open)
        .when(decline(reason, null))
        .then([declinedEvent(reason, null)]);
      given(pending)
        .when(decline(reason, null))
        .then([declinedEvent(reason, null)]);
    });
    for (const [name, events] of [
      ['Accepted', acceptedOffer],
      ['Confirmed', confirmed],
      ['Declined', declined],
      ['Canceled', canceled],
    ] as const) {
      t.test(`${reason}: leaves an offer that is ${name} alone, without an error`, async () =>
        given(events).when(decline(reason, null)).then([]),
      );
    }
  }
});

t.test('WithdrawOffer', async (t) => {
  t.test('the carrier withdraws a submitted offer', async (t) => {
    given(open).when(withdraw()).then([canceledEvent()]);
    t.match(stateAfter(canceled), { status: 7, updatedAt: later });
  });
  t.test('the carrier withdraws an offer pending the counter answer, without a message', async () =>
    given(pending)
      .when(withdraw(carrier, ''))
      .then([canceledEvent('')]),
  );
  for (const [name, events] of [
    ['Accepted', acceptedOffer],
    ['Confirmed', confirmed],
    ['Declined', declined],
    ['Canceled', canceled],
  ] as const) {
    t.test(`refuses an offer that is ${name}`, async () =>
      given(events)
        .when(withdraw())
        .thenThrows(
          IllegalStateError,
          new RegExp(`^An offer that is ${name} cannot be withdrawn$`),
        ),
    );
  }
});

t.test('UploadContract', async (t) => {
  t.test('the winning carrier uploads the signed contract: Confirmed', async (t) => {
    given(acceptedOffer).when(upload()).then([uploaded()]);
    t.match(stateAfter(confirmed), { status: 14, contractFileId: 'file-contract', tourId });
  });
  t.test('a second upload replaces the file', async (t) => {
    given(confirmed)
      .when(upload(carrier, 'file-contract-2'))
      .then([uploaded('file-contract-2')]);
    t.match(stateAfter([...confirmed, uploaded('file-contract-2')]), {
      status: 14,
      contractFileId: 'file-contract-2',
    });
  });
  for (const [name, events] of [
    ['Submitted Proposal', open],
    ['Pending Acceptance', pending],
    ['Declined', declined],
    ['Canceled', canceled],
  ] as const) {
    t.test(`refuses an offer that is ${name}`, async () =>
      given(events)
        .when(upload())
        .thenThrows(
          IllegalStateError,
          new RegExp(`^A contract cannot be uploaded for an offer that is ${name}$`),
        ),
    );
  }
});

t.test('evolve', async (t) => {
  t.test('ignores events before the proposal was submitted', async (t) => {
    t.same(stateAfter([countered, acceptedEvent(), uploaded()]), { exists: false });
  });
  t.test('a fresh offer keeps nothing of the one before it', async (t) => {
    const again: OfferEvent = {
      ...submitted,
      data: { ...submitted.data, price: 2100, submittedAt: later },
    };
    t.match(stateAfter([submitted, countered, declinedEvent(), again]), {
      status: 10,
      price: 2100,
      counterPrice: null,
      tourId: null,
      contractFileId: null,
    });
    // Not a sequence the decider produces; evolve must still start from scratch on ProposalSubmitted.
    t.match(stateAfter([...confirmed, again]), {
      status: 10,
      tourId: null,
      contractFileId: null,
      submittedAt: later,
    });
  });
});

t.test('a Book Now booking: the offer at the booked price, accepted at once', async (t) => {
  const book: OfferCommand = {
    type: 'BookOffer',
    data: {
      proposalId: offerId,
      loadId,
      loadGuid: 'L-000123',
      shipperOrganizationId: shipper,
      carrierOrganizationId: carrier,
      userId: carrierUser,
      price: 2750.5,
      tourId,
      now: later,
    },
  };
  const bookedAccepted: OfferEvent = {
    type: 'ProposalAccepted',
    data: {
      proposalId: offerId,
      loadId,
      tourId,
      price: 2750.5,
      acceptedBy: carrierUser,
      acceptedAt: later,
    },
  };
  t.test('a fresh offer, with the message the history shows', async () =>
    given([])
      .when(book)
      .then([
        {
          type: 'ProposalSubmitted',
          data: {
            proposalId: offerId,
            loadId,
            loadGuid: 'L-000123',
            shipperOrganizationId: shipper,
            carrierOrganizationId: carrier,
            submittedBy: carrierUser,
            price: 2750.5,
            message: 'Booked now at $2,750.50',
            eldTruckName: null,
            submittedAt: later,
          },
        },
        bookedAccepted,
      ]),
  );
  t.test("the carrier's open offer revised to the booked price", async () =>
    given([submitted, countered])
      .when(book)
      .then([
        {
          type: 'ProposalRevised',
          data: {
            proposalId: offerId,
            price: 2750.5,
            message: 'Booked now at $2,750.50',
            eldTruckName: 'Truck 7',
            revisedBy: carrierUser,
            revisedAt: later,
          },
        },
        bookedAccepted,
      ]),
  );
  t.test('nothing again once accepted for that tour (a repair run twice)', async () =>
    given([submitted, bookedAccepted]).when(book).then([]),
  );
});
