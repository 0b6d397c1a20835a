import t from 'tap';
import {
  bookingTrust,
  contactChangedWithin,
  offerTrust,
  registeredTrucks,
  type BookingFacts,
} from './trust.ts';

const clean: BookingFacts = {
  standing: { authorityStatus: 'active', insuranceOnFile: true },
  overbooked: false,
  driverAssigned: true,
  driverOfCarrier: true,
  tractorNumber: 'T-481',
  dock: null,
  contactChangedRecently: false,
};
const codes = (facts: Partial<BookingFacts>) =>
  bookingTrust({ ...clean, ...facts }).reasons.map((reason) => reason.code);

t.test(
  'a clean booking reads ready; each fact flags it with its reason and sentence',
  async (t) => {
    t.same(bookingTrust(clean), { state: 'ready', reasons: [] });
    t.same(bookingTrust({ ...clean, standing: null }), { state: 'ready', reasons: [] });
    t.same(codes({ standing: { authorityStatus: 'revoked', insuranceOnFile: true } }), [
      'authority_inactive',
    ]);
    t.same(codes({ standing: { authorityStatus: 'inactive', insuranceOnFile: false } }), [
      'authority_inactive',
      'insurance_expired',
    ]);
    t.same(codes({ standing: { authorityStatus: 'unknown', insuranceOnFile: false } }), []);
    t.same(codes({ overbooked: true }), ['overbooked']);
    t.same(codes({ driverOfCarrier: false }), ['driver_not_of_carrier']);
    t.same(codes({ contactChangedRecently: true }), ['contact_changed_recently']);
    t.same(codes({ tractorNumber: null }), ['no_tractor_number']);
    t.same(codes({ driverAssigned: false, driverOfCarrier: false, tractorNumber: null }), []);
    t.same(codes({ dock: 'held' }), ['pickup_held']);
    t.same(bookingTrust({ ...clean, tractorNumber: null }), {
      state: 'flagged',
      reasons: [
        { code: 'no_tractor_number', text: 'The driver was assigned without a tractor number' },
      ],
    });
  },
);

t.test(
  'released at the dock: protected, unless the carrier stands without authority or insurance',
  async (t) => {
    t.same(bookingTrust({ ...clean, dock: 'released', tractorNumber: null, overbooked: true }), {
      state: 'protected',
      reasons: [],
    });
    t.same(
      bookingTrust({
        ...clean,
        dock: 'released',
        standing: { authorityStatus: 'revoked', insuranceOnFile: true },
      }).state,
      'flagged',
    );
  },
);

t.test(
  'a contact change within 24 hours before the booking, or while the offer was open',
  async (t) => {
    const offered = '2026-12-05T12:00:00.000Z';
    const booked = '2026-12-05T18:00:00.000Z';
    t.ok(contactChangedWithin(['2026-12-04T13:00:00.000Z'], offered, booked), '23 hours before');
    t.notOk(contactChangedWithin(['2026-12-04T11:00:00.000Z'], offered, booked), '25 hours before');
    t.ok(contactChangedWithin(['2026-12-05T15:00:00.000Z'], offered, booked), 'while open');
    t.notOk(
      contactChangedWithin(['2026-12-05T19:00:00.000Z'], offered, booked),
      'after the booking',
    );
    t.ok(contactChangedWithin(['2026-12-05T19:00:00.000Z'], offered, null), 'an offer still open');
  },
);

t.test('an offer: standing, trucks and a recent contact change only', async (t) => {
  t.same(offerTrust({ standing: null, wouldOverbook: false, contactChangedRecently: false }), {
    state: 'ready',
    reasons: [],
  });
  t.same(
    offerTrust({
      standing: { authorityStatus: 'active', insuranceOnFile: false },
      wouldOverbook: true,
      contactChangedRecently: true,
    }).reasons.map((reason) => reason.code),
    ['insurance_expired', 'overbooked', 'contact_changed_recently'],
  );
});

t.test("a carrier's registered trucks", async (t) => {
  t.equal(
    registeredTrucks([
      { type: 4, count: 6 },
      { type: 1, count: 2 },
    ]),
    8,
  );
  t.equal(registeredTrucks([]), 0);
  t.equal(registeredTrucks(null), 0);
});
