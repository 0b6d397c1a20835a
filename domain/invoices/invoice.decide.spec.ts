/** The rules of carriers' invoices, given/when/then (docs/domain.md "Invoices"). */
import t from 'tap';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import {
  INVOICE_SILENCE_DAYS,
  invoiceDecider,
  invoiceNumbersDecider,
  invoiceStatusAt,
} from './invoice.decide.ts';
import type {
  ClaimToBill,
  InvoiceCommand,
  InvoiceDrafted,
  InvoiceEvent,
  InvoiceSubmitted,
} from './invoice.types.ts';

const given = specFor(invoiceDecider);
const invoiceId = 'e1000000-0000-4000-8000-000000000001';
const carrierOrganizationId = '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12';
const shipperOrganizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const parties = { carrierOrganizationId, shipperOrganizationId };
const carrierUser = 'a1000000-0000-4000-8000-000000000002';
const shipperUser = 'a1000000-0000-4000-8000-000000000001';
const draftedAt = '2026-12-05T10:00:00.000Z';
const submittedAt = '2026-12-06T10:00:00.000Z';
const remitTo = { name: 'Acme Trucking', address: '1 Road, Dallas TX', factor: false };

const claim = (over: Partial<ClaimToBill>): ClaimToBill => ({
  claimId: 'c1000000-0000-4000-8000-000000000001',
  kind: 'detention',
  stopIndex: 1,
  status: 'approved',
  amount: 120,
  settledAmount: null,
  ...over,
});

const draft = (claims: ClaimToBill[] = [], price = 1500): InvoiceCommand => ({
  type: 'DraftInvoice',
  data: {
    invoiceId,
    number: 'INV-000001',
    loadId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    loadGuid: 'L-1001',
    tourId: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
    carrierOrganizationId,
    shipperOrganizationId,
    price,
    claims,
    termsDays: 30,
    remitTo,
    now: draftedAt,
  },
});

const drafted: InvoiceDrafted = {
  type: 'InvoiceDrafted',
  data: {
    invoiceId,
    number: 'INV-000001',
    loadId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    loadGuid: 'L-1001',
    tourId: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
    carrierOrganizationId,
    shipperOrganizationId,
    termsDays: 30,
    lines: [
      { kind: 'linehaul', description: 'Line haul', amount: 1500 },
      {
        kind: 'detention',
        claimId: 'c1000000-0000-4000-8000-000000000001',
        description: 'Detention, stop 2',
        amount: 120,
      },
    ],
    total: 1620,
    remitTo,
    draftedAt,
  },
};
const submitted: InvoiceSubmitted = {
  type: 'InvoiceSubmitted',
  data: {
    invoiceId,
    reference: 'ACC-77',
    submittedBy: carrierUser,
    submittedAt,
    dueAt: '2027-01-05T10:00:00.000Z',
    total: 1620,
    pdfFileId: 'f1000000-0000-4000-8000-000000000001',
    pdfSha256: 'ab'.repeat(32),
    ...parties,
  },
};
const approved: InvoiceEvent = {
  type: 'InvoiceApproved',
  data: {
    invoiceId,
    approvedBy: shipperUser,
    bySilence: false,
    approvedAt: '2026-12-07T10:00:00.000Z',
    ...parties,
  },
};
const disputed: InvoiceEvent = {
  type: 'InvoiceDisputed',
  data: {
    invoiceId,
    lines: [{ index: 1, reason: 'The dock log says 1 hour' }],
    disputedBy: shipperUser,
    disputedAt: '2026-12-07T10:00:00.000Z',
    ...parties,
  },
};
const scheduled: InvoiceEvent = {
  type: 'InvoiceScheduled',
  data: {
    invoiceId,
    date: '2026-12-20',
    scheduledBy: shipperUser,
    scheduledAt: '2026-12-08T10:00:00.000Z',
    ...parties,
  },
};
const paid: InvoiceEvent = {
  type: 'InvoicePaid',
  data: {
    invoiceId,
    reference: 'ACH 555',
    paidAt: '2026-12-20T00:00:00.000Z',
    amount: 1620,
    recordedBy: shipperUser,
    recordedAt: '2026-12-20T12:00:00.000Z',
    ...parties,
  },
};

const approve = (now = '2026-12-07T10:00:00.000Z'): InvoiceCommand => ({
  type: 'ApproveInvoice',
  data: { invoiceId, userId: shipperUser, bySilence: false, now },
});
const silence = (now: string): InvoiceCommand => ({
  type: 'ApproveInvoice',
  data: { invoiceId, userId: null, bySilence: true, now },
});
const dispute = (lines: { index: number; reason: string }[]): InvoiceCommand => ({
  type: 'DisputeInvoice',
  data: { invoiceId, userId: shipperUser, lines, now: '2026-12-07T10:00:00.000Z' },
});
const submit: InvoiceCommand = {
  type: 'SubmitInvoice',
  data: {
    invoiceId,
    userId: carrierUser,
    reference: ' ACC-77 ',
    pdfFileId: 'f1000000-0000-4000-8000-000000000001',
    pdfSha256: 'ab'.repeat(32),
    now: submittedAt,
  },
};
const schedule = (date: string): InvoiceCommand => ({
  type: 'ScheduleInvoice',
  data: { invoiceId, userId: shipperUser, date, now: '2026-12-08T10:00:00.000Z' },
});
const pay = (paidAt: string, reference = 'ACH 555'): InvoiceCommand => ({
  type: 'PayInvoice',
  data: { invoiceId, userId: shipperUser, reference, paidAt, now: '2026-12-20T12:00:00.000Z' },
});
const receipt = (received: boolean): InvoiceCommand => ({
  type: 'ConfirmInvoiceReceipt',
  data: { invoiceId, userId: carrierUser, received, now: '2026-12-21T12:00:00.000Z' },
});

t.test('a draft bills the agreed price and the approved claims only', async () => {
  given([])
    .when(
      draft([
        claim({}),
        claim({ claimId: 'c2', kind: 'layover', status: 'claimed', amount: 300 }),
        claim({ claimId: 'c3', kind: 'lumper', status: 'disputed', amount: 80 }),
        claim({ claimId: 'c4', kind: 'tonu', status: 'answered', amount: 250 }),
      ]),
    )
    .then([drafted]);
});

t.test(
  'a settled claim is billed at its settled amount, a settlement of nothing not at all',
  async () => {
    const [event] = invoiceDecider.decide(
      draft([
        claim({ status: 'settled', amount: 120, settledAmount: 60 }),
        claim({ claimId: 'c2', status: 'settled', amount: 90, settledAmount: 0 }),
      ]),
      invoiceDecider.initialState(),
    ) as [InvoiceDrafted];
    t.same(
      event.data.lines.map((line) => line.amount),
      [1500, 60],
    );
    t.equal(event.data.total, 1560);
  },
);

t.test('one draft per tour: drafting again adds nothing', async () => {
  given([drafted])
    .when(draft([claim({})]))
    .then([]);
});

t.test('no agreed price, no draft', async () => {
  given([])
    .when(draft([], 0))
    .thenThrows(ValidationError, /agreed price/);
});

t.test('the carrier submits the draft: due after the terms, its reference trimmed', async () => {
  given([drafted]).when(submit).then([submitted]);
  given([drafted, submitted])
    .when(submit)
    .thenThrows(IllegalStateError, /submitted cannot be submitted again/);
  given([]).when(submit).thenThrows(NotFoundError);
});

t.test('the shipper approves a submitted invoice; not a draft, not twice', async () => {
  given([drafted, submitted]).when(approve()).then([approved]);
  given([drafted])
    .when(approve())
    .thenThrows(IllegalStateError, /draft cannot be approved/);
  given([drafted, submitted, approved])
    .when(approve())
    .thenThrows(IllegalStateError, /approved cannot be approved/);
});

t.test('a dispute names lines, each with its reason', async () => {
  given([drafted, submitted])
    .when(dispute([{ index: 1, reason: ' The dock log says 1 hour ' }]))
    .then([disputed]);
  given([drafted, submitted])
    .when(dispute([{ index: 2, reason: 'No such line' }]))
    .thenThrows(ValidationError, /no line 2/);
  given([drafted, submitted])
    .when(
      dispute([
        { index: 0, reason: 'a' },
        { index: 0, reason: 'b' },
      ]),
    )
    .thenThrows(ValidationError, /named twice/);
  given([drafted, submitted])
    .when(dispute([{ index: 0, reason: '  ' }]))
    .thenThrows(ValidationError, /why/);
  given([drafted, submitted])
    .when(dispute([]))
    .thenThrows(ValidationError, /at least one/);
  given([drafted])
    .when(dispute([{ index: 0, reason: 'x' }]))
    .thenThrows(IllegalStateError);
  const state = [drafted, submitted, disputed].reduce(
    invoiceDecider.evolve,
    invoiceDecider.initialState(),
  );
  t.ok(state.exists);
  if (state.exists)
    t.same(
      state.lines.map((line) => [line.status, line.reason]),
      [
        ['open', null],
        ['disputed', 'The dock log says 1 hour'],
      ],
    );
});

t.test('the carrier answers a dispute: the invoice waits for the shipper again', async () => {
  const answer: InvoiceCommand = {
    type: 'AnswerInvoiceDispute',
    data: {
      invoiceId,
      userId: carrierUser,
      text: 'Geofence shows 3 hours',
      now: '2026-12-08T10:00:00.000Z',
    },
  };
  const answered: InvoiceEvent = {
    type: 'InvoiceDisputeAnswered',
    data: {
      invoiceId,
      text: 'Geofence shows 3 hours',
      answeredBy: carrierUser,
      answeredAt: '2026-12-08T10:00:00.000Z',
      ...parties,
    },
  };
  given([drafted, submitted, disputed]).when(answer).then([answered]);
  given([drafted, submitted])
    .when(answer)
    .thenThrows(IllegalStateError, /no dispute to answer/);
  // Answered, the shipper may approve it or dispute it again.
  given([drafted, submitted, disputed, answered])
    .when(approve('2026-12-09T10:00:00.000Z'))
    .then([{ ...approved, data: { ...approved.data, approvedAt: '2026-12-09T10:00:00.000Z' } }]);
  // A disputed invoice may be approved after all.
  given([drafted, submitted, disputed]).when(approve()).then([approved]);
});

t.test(
  'silence approves a submitted invoice once its window closed, and nothing else',
  async () => {
    const before = '2026-12-16T09:59:59.000Z';
    const after = '2026-12-16T10:00:00.000Z';
    t.equal(INVOICE_SILENCE_DAYS, 10);
    given([drafted, submitted]).when(silence(before)).then([]);
    given([drafted, submitted])
      .when(silence(after))
      .then([
        {
          type: 'InvoiceApproved',
          data: { invoiceId, approvedBy: null, bySilence: true, approvedAt: after, ...parties },
        },
      ]);
    given([drafted, submitted, disputed]).when(silence(after)).then([]);
    given([drafted, submitted, approved]).when(silence(after)).then([]);
  },
);

t.test('the shipper schedules an approved invoice on a date not past', async () => {
  given([drafted, submitted, approved]).when(schedule('2026-12-20')).then([scheduled]);
  given([drafted, submitted, approved])
    .when(schedule('2026-12-01'))
    .thenThrows(ValidationError, /past/);
  given([drafted, submitted, approved])
    .when(schedule('20 Dec'))
    .thenThrows(ValidationError, /YYYY-MM-DD/);
  given([drafted, submitted])
    .when(schedule('2026-12-20'))
    .thenThrows(IllegalStateError, /submitted cannot be scheduled/);
});

t.test('the shipper records the payment of the total on its bank date', async () => {
  given([drafted, submitted, approved, scheduled]).when(pay('2026-12-20')).then([paid]);
  given([drafted, submitted, approved]).when(pay('2026-12-20')).then([paid]);
  given([drafted, submitted])
    .when(pay('2026-12-20'))
    .thenThrows(IllegalStateError, /submitted cannot be paid/);
  given([drafted, submitted, approved])
    .when(pay('2026-12-21'))
    .thenThrows(ValidationError, /future/);
  given([drafted, submitted, approved])
    .when(pay('2026-12-05'))
    .thenThrows(ValidationError, /before the invoice was submitted/);
  given([drafted, submitted, approved])
    .when(pay('2026-12-20', ' '))
    .thenThrows(ValidationError, /reference/);
});

t.test(
  'the carrier confirms the receipt, or says it did not arrive, which reopens it',
  async () => {
    given([drafted, submitted, approved, paid])
      .when(receipt(true))
      .then([
        {
          type: 'InvoiceReceiptConfirmed',
          data: {
            invoiceId,
            confirmedBy: carrierUser,
            confirmedAt: '2026-12-21T12:00:00.000Z',
            ...parties,
          },
        },
      ]);
    const denied: InvoiceEvent = {
      type: 'InvoiceReceiptDenied',
      data: { invoiceId, deniedBy: carrierUser, deniedAt: '2026-12-21T12:00:00.000Z', ...parties },
    };
    given([drafted, submitted, approved, paid]).when(receipt(false)).then([denied]);
    // Reopened: the shipper records the payment again.
    given([drafted, submitted, approved, paid, denied]).when(pay('2026-12-20')).then([paid]);
    given([drafted, submitted, approved])
      .when(receipt(true))
      .thenThrows(IllegalStateError, /no payment to confirm/);
  },
);

t.test('overdue is read: unpaid past its due date', async () => {
  const due = '2027-01-05T10:00:00.000Z';
  t.equal(invoiceStatusAt('submitted', due, '2027-01-05T10:00:01.000Z'), 'overdue');
  t.equal(invoiceStatusAt('scheduled', due, '2027-01-06T00:00:00.000Z'), 'overdue');
  t.equal(invoiceStatusAt('submitted', due, '2027-01-05T09:00:00.000Z'), 'submitted');
  t.equal(invoiceStatusAt('paid', due, '2027-02-01T00:00:00.000Z'), 'paid');
  t.equal(invoiceStatusAt('draft', null, '2027-02-01T00:00:00.000Z'), 'draft');
});

t.test('numbers per carrier: one each, in order, the same one when asked again', async () => {
  const reserve = (id: string) => ({
    type: 'ReserveInvoiceNumber' as const,
    data: { carrierOrganizationId, invoiceId: id, now: draftedAt },
  });
  const first = invoiceNumbersDecider.decide(reserve('a'), invoiceNumbersDecider.initialState());
  t.equal(first[0]?.data.number, 'INV-000001');
  const state = first.reduce(invoiceNumbersDecider.evolve, invoiceNumbersDecider.initialState());
  t.same(invoiceNumbersDecider.decide(reserve('a'), state), []);
  t.equal(invoiceNumbersDecider.decide(reserve('b'), state)[0]?.data.number, 'INV-000002');
});
