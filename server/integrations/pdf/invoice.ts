/**
 * The carrier's invoice as a PDF (POST invoices/{id}/submit), in the rate confirmation's fonts and
 * layout: the number and dates, who bills whom, where to remit (the carrier, or its factor), the
 * lines (line haul and approved accessorials) and the total, and the payment terms. The same input
 * always gives the same bytes: dates come from `submittedAt`.
 */
import { PDFDocument } from 'pdf-lib';
import { Typesetter } from './fonts.ts';
import { colors, drawFooters, Flow, type TextStyle } from './pdfLayout.ts';
import { drawTable } from './pdfTable.ts';
import { formatUsd, formatZonedDate, parseInstant } from './rateConfirmation.format.ts';
import { PRODUCT_NAME, SECTION_GAP } from './rateConfirmation.sections.ts';

export type InvoicePdfInput = {
  number: string;
  loadGuid: string;
  loadId: string;
  /** ISO 8601 instant: the submission, also the document's date. */
  submittedAt: string;
  dueAt: string;
  termsDays: number;
  reference: string | null;
  carrier: { name: string; address: string };
  shipper: { name: string; address: string };
  remitTo: { name: string; address: string; factor: boolean };
  lines: { description: string; amount: number }[];
  total: number;
};

export async function renderInvoice(input: InvoicePdfInput): Promise<Uint8Array> {
  const submittedAt = parseInstant(input.submittedAt, 'submittedAt');
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Invoice ${input.number}`, { showInWindowTitleBar: true });
  doc.setSubject(`Load ${input.loadGuid}`);
  doc.setAuthor(input.carrier.name);
  doc.setKeywords(['invoice', input.number, input.loadGuid, input.loadId]);
  doc.setCreator(PRODUCT_NAME);
  doc.setProducer(PRODUCT_NAME);
  doc.setLanguage('en-US');
  doc.setCreationDate(submittedAt);
  doc.setModificationDate(submittedAt);
  const typesetter = await Typesetter.create(doc);
  const fonts = { regular: typesetter.regular, bold: typesetter.bold };
  const flow = new Flow(doc, fonts);
  const label: TextStyle = { font: fonts.bold, size: 8.5, color: colors.muted };
  const value: TextStyle = { font: fonts.regular, size: 9 };

  flow.paragraph(`Invoice ${input.number}`, { font: fonts.bold, size: 22 });
  flow.paragraph(PRODUCT_NAME, { font: fonts.regular, size: 9, color: colors.muted });
  flow.gap(SECTION_GAP);

  flow.heading('Invoice');
  const facts: [string, string][] = [
    ['Load', input.loadGuid],
    ['Date', formatZonedDate(input.submittedAt, 'UTC')],
    ['Due', formatZonedDate(input.dueAt, 'UTC')],
    ['Terms', `Net ${input.termsDays} day${input.termsDays === 1 ? '' : 's'}`],
    ...(input.reference ? ([['Reference', input.reference]] as [string, string][]) : []),
  ];
  for (const [name, text] of facts) {
    flow.hanging(name, label, text, value, 86);
    flow.gap(1.5);
  }
  flow.gap(SECTION_GAP);

  flow.heading('From');
  flow.paragraph(input.carrier.name, { font: fonts.bold, size: 10 });
  flow.paragraph(input.carrier.address, value);
  flow.gap(SECTION_GAP);
  flow.heading('Bill to');
  flow.paragraph(input.shipper.name, { font: fonts.bold, size: 10 });
  flow.paragraph(input.shipper.address, value);
  flow.gap(SECTION_GAP);
  flow.heading('Remit to');
  flow.paragraph(input.remitTo.name, { font: fonts.bold, size: 10 });
  flow.paragraph(input.remitTo.address, value);
  if (input.remitTo.factor)
    flow.paragraph(
      `This invoice has been assigned to ${input.remitTo.name}: pay only to the address above.`,
      { font: fonts.regular, size: 8, color: colors.muted },
    );
  flow.gap(SECTION_GAP);

  flow.heading('Charges');
  drawTable(
    flow,
    [
      { header: '#', width: 30 },
      { header: 'Description', width: flow.width - 130 },
      { header: 'Amount', width: 100 },
    ],
    [
      ...input.lines.map((line, index) => [
        [{ text: String(index + 1) }],
        [{ text: line.description }],
        [{ text: formatUsd(line.amount) }],
      ]),
      [
        [{ text: '' }],
        [{ text: 'Total', bold: true }],
        [{ text: formatUsd(input.total), bold: true }],
      ],
    ],
  );
  flow.gap(SECTION_GAP);
  drawFooters(doc, fonts, `Invoice ${input.number} · Load ${input.loadGuid} · ${PRODUCT_NAME}`);
  await typesetter.finish();
  return doc.save({ useObjectStreams: false });
}
