import t from 'tap';
import { invoiceStream, type InvoiceEvent } from '../../domain/invoices/invoice.types.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { carrier, carrierUser, on, shipper, shipperUser } from '../testing/trade.ts';
import { invoicesProjection } from './invoices.projection.ts';

const spec = readModelSpec(invoicesProjection, openTestDatabase);
t.teardown(spec.close);

const invoice = 'dddd1111-2222-4333-8444-555566667777';
const tour = 'bbbb1111-2222-4333-8444-555566667777';
const load = 'aaaa1111-2222-4333-8444-555566667777';
const file = 'eeee1111-2222-4333-8444-555566667777';
const draftedAt = '2026-12-05T10:00:00.000Z';
const submittedAt = '2026-12-06T10:00:00.000Z';
const dueAt = '2027-01-05T10:00:00.000Z';
const parties = { carrierOrganizationId: carrier, shipperOrganizationId: shipper };
const event = (e: InvoiceEvent) => on<InvoiceEvent>(invoiceStream(invoice), e);
const lines = [
  { kind: 'linehaul' as const, description: 'Line haul', amount: 1500 },
  { kind: 'detention' as const, claimId: tour, description: 'Detention, stop 2', amount: 120 },
];
const remitTo = { name: 'Fast Factor', address: 'PO Box 9', factor: true };
const drafted = event({
  type: 'InvoiceDrafted',
  data: {
    invoiceId: invoice,
    number: 'INV-000001',
    loadId: load,
    loadGuid: 'L-1001',
    tourId: tour,
    ...parties,
    termsDays: 30,
    lines,
    total: 1620,
    remitTo,
    draftedAt,
  },
});
const submitted = event({
  type: 'InvoiceSubmitted',
  data: {
    invoiceId: invoice,
    reference: 'ACC-77',
    submittedBy: carrierUser,
    submittedAt,
    dueAt,
    total: 1620,
    pdfFileId: file,
    pdfSha256: 'ab'.repeat(32),
    ...parties,
  },
});
const row = {
  id: invoice,
  number: 'INV-000001',
  load_id: load,
  load_guid: 'L-1001',
  tour_id: tour,
  carrier_organization_id: carrier,
  shipper_organization_id: shipper,
  status: 'draft',
  total: 1620,
  terms_days: 30,
  lines: lines.map((line) => ({ ...line, status: 'open', reason: null })),
  remit_to: remitTo,
  reference: null,
  pdf_file_id: null,
  answer: null,
  drafted_at: draftedAt,
  submitted_at: null,
  due_at: null,
  awaiting_since: null,
  scheduled_for: null,
  paid_at: null,
  payment_reference: null,
};

t.test('a draft: its lines, total, terms and remit-to', async () => {
  await spec.given(drafted).expectRows('invoices_view', [{ ...row, updated_at: draftedAt }]);
});

t.test('submitted, then a line disputed: the row follows the stream', async () => {
  await spec
    .given(
      drafted,
      submitted,
      event({
        type: 'InvoiceDisputed',
        data: {
          invoiceId: invoice,
          lines: [{ index: 1, reason: 'One hour' }],
          disputedBy: shipperUser,
          disputedAt: '2026-12-07T10:00:00.000Z',
          ...parties,
        },
      }),
    )
    .expectRows('invoices_view', [
      {
        ...row,
        status: 'disputed',
        reference: 'ACC-77',
        pdf_file_id: file,
        submitted_at: submittedAt,
        due_at: dueAt,
        lines: [
          { ...lines[0], status: 'open', reason: null },
          { ...lines[1], status: 'disputed', reason: 'One hour' },
        ],
        updated_at: '2026-12-07T10:00:00.000Z',
      },
    ]);
});
