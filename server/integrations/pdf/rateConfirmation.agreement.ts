/** The closing parts of the rate confirmation: the agreed price, the terms and the signatures. */
import type { PDFImage } from 'pdf-lib';
import {
  colors,
  drawBlock,
  drawTextLine,
  lineHeightOf,
  wrapBlock,
  type Flow,
  type TextStyle,
} from './pdfLayout.ts';
import { SECTION_GAP } from './rateConfirmation.sections.ts';
import type { RateConfirmationInput } from './rateConfirmation.types.ts';
import type { AccessorialTerms } from '../../../domain/loads/terms.ts';
import { formatUsd } from './rateConfirmation.format.ts';

export const TERMS = [
  'Carrier agrees to transport the shipment above at the agreed rate, all charges included unless Shipper approves others in writing.',
  "Payment terms: net 30 days from Shipper's receipt of Carrier's invoice and the signed proof of delivery (POD).",
  "Carrier shall not re-broker, assign or interline this shipment without Shipper's prior written consent.",
  'Carrier holds valid operating authority and the insurance required by law, and keeps both in force until delivery.',
  'Carrier is liable for the goods from pickup to delivery and shall report any delay, accident, shortage or damage to Shipper at once.',
  'Carrier accepts by signing this confirmation and returning it through Freight Marketplace before pickup.',
  'This confirmation and the Freight Marketplace terms of use form the entire agreement for this shipment.',
];

export function drawPrice(flow: Flow, price: number): void {
  const height = 40;
  flow.ensure(height + SECTION_GAP);
  const { regular, bold } = flow.fonts;
  flow.page.drawRectangle({
    x: flow.left,
    y: flow.y - height,
    width: flow.width,
    height,
    color: colors.shade,
    borderColor: colors.accent,
    borderWidth: 1,
  });
  drawBlock(
    flow.page,
    [
      { text: 'Agreed rate', style: { font: bold, size: 11 } },
      {
        text: 'All-inclusive, in US dollars, for the shipment above.',
        style: { font: regular, size: 8, color: colors.muted },
      },
    ],
    flow.left + 12,
    flow.y - 7,
  );
  const amount = formatUsd(price);
  const size = 18;
  const width = bold.widthOfTextAtSize(amount, size);
  drawTextLine(flow.page, amount, flow.right - 12 - width, flow.y - height / 2 - size * 0.35, {
    font: bold,
    size,
    color: colors.accent,
  });
  flow.gap(height + SECTION_GAP);
}

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/** The accessorial terms' lines, as agreed: what the carrier is paid beyond the line haul. */
export const accessorialLines = (terms: AccessorialTerms | null): [string, string][] =>
  terms === null
    ? [['Accessorials', 'No terms agreed']]
    : [
        [
          'Free time',
          `${hoursText(terms.freeTimeHours.pickup)} at pickup, ${hoursText(terms.freeTimeHours.delivery)} at delivery`,
        ],
        [
          'Detention',
          `${formatUsd(terms.detentionPerHour)} per hour after free time, ${
            terms.detentionCap === null
              ? 'no cap'
              : `capped at ${formatUsd(terms.detentionCap)} per stop`
          }; none for a truck arriving more than ${terms.graceMinutes} minutes after its appointment`,
        ],
        [
          'TONU',
          `${formatUsd(terms.tonu)} if the shipment is cancelled after the carrier confirmed`,
        ],
        ['Layover', `${formatUsd(terms.layoverPerDay)} per day held overnight at a stop`],
        [
          'Lumper',
          terms.lumper === 'shipper'
            ? 'Paid by the shipper'
            : 'Paid by the carrier, reimbursed against the receipt',
        ],
        [
          'Claims',
          `Answered within ${hoursText(terms.disputeWindowHours)}; a claim not disputed by then is approved`,
        ],
      ];

export function drawAccessorialTerms(flow: Flow, terms: AccessorialTerms | null): void {
  const label: TextStyle = { font: flow.fonts.bold, size: 8.5, color: colors.muted };
  const value: TextStyle = { font: flow.fonts.regular, size: 9 };
  flow.heading('Accessorial terms');
  for (const [name, text] of accessorialLines(terms)) {
    flow.hanging(name, label, text, value, 86);
    flow.gap(1.5);
  }
  flow.gap(SECTION_GAP);
}

/** The shipper's payment terms: when the carrier's invoice falls due. */
export function drawPaymentTerms(flow: Flow, days: number): void {
  const label: TextStyle = { font: flow.fonts.bold, size: 8.5, color: colors.muted };
  const value: TextStyle = { font: flow.fonts.regular, size: 9 };
  flow.heading('Payment terms');
  flow.hanging(
    'Net',
    label,
    `${days} day${days === 1 ? '' : 's'} from the submission of the carrier's invoice`,
    value,
    86,
  );
  flow.gap(SECTION_GAP);
}

export function drawTerms(flow: Flow): void {
  const style: TextStyle = { font: flow.fonts.regular, size: 7.5 };
  flow.heading('Terms and conditions');
  TERMS.forEach((term, index) => {
    flow.hanging(`${index + 1}.`, style, term, style, 14);
    flow.gap(1.5);
  });
  flow.gap(SECTION_GAP);
}

/** A label and beside it either its value or a line to write on. */
function signatureField(
  flow: Flow,
  x: number,
  top: number,
  width: number,
  label: string,
  value: string | null,
): void {
  const style: TextStyle = { font: flow.fonts.regular, size: 8.5, color: colors.muted };
  const labelWidth = style.font.widthOfTextAtSize(label, style.size) + 5;
  const baseline = top - style.size;
  drawTextLine(flow.page, label, x, baseline, style);
  if (value === null) {
    flow.page.drawLine({
      start: { x: x + labelWidth, y: baseline - 1.5 },
      end: { x: x + width, y: baseline - 1.5 },
      thickness: 0.6,
      color: colors.text,
    });
    return;
  }
  const [line] = wrapBlock(
    [{ text: value, style: { font: flow.fonts.regular, size: 8.5 } }],
    width - labelWidth,
  );
  if (line) drawBlock(flow.page, [line], x + labelWidth, top);
}

/**
 * Both parties side by side: the shipper's stored signature above its line when there is one
 * (with its name and the issue date filled in), otherwise blank lines to sign, name and date by hand.
 */
export function drawSignatures(
  flow: Flow,
  input: RateConfirmationInput,
  signature: PDFImage | null,
  issuedDate: string,
): void {
  const gutter = 40;
  const columnWidth = (flow.width - gutter) / 2;
  const imageHeight = 36;
  const headerHeight = lineHeightOf(8.5) + lineHeightOf(10);
  const fieldHeight = lineHeightOf(8.5) + 6;
  const height = headerHeight + imageHeight + 4 + 2 * fieldHeight;
  flow.heading('Signatures', height + 4);

  const top = flow.y;
  const parties = [
    { label: 'SHIPPER', party: input.shipper, image: signature },
    { label: 'CARRIER', party: input.carrier, image: null },
  ];
  parties.forEach(({ label, party, image }, index) => {
    const x = flow.left + index * (columnWidth + gutter);
    drawBlock(
      flow.page,
      [
        { text: label, style: { font: flow.fonts.bold, size: 8.5, color: colors.accent } },
        ...wrapBlock(
          [{ text: party.name, style: { font: flow.fonts.bold, size: 10 } }],
          columnWidth,
        ).slice(0, 1),
      ],
      x,
      top,
    );
    const lineY = top - headerHeight - imageHeight;
    if (image) {
      const { width, height: imageDrawnHeight } = image.scaleToFit(columnWidth, imageHeight - 4);
      flow.page.drawImage(image, { x, y: lineY + 2, width, height: imageDrawnHeight });
    }
    flow.page.drawLine({
      start: { x, y: lineY },
      end: { x: x + columnWidth, y: lineY },
      thickness: 0.8,
      color: colors.text,
    });
    const filled = image !== null;
    signatureField(flow, x, lineY - 3, columnWidth, 'Authorized signature', '');
    const nameWidth = columnWidth * 0.6;
    const fieldTop = lineY - 3 - fieldHeight;
    signatureField(flow, x, fieldTop, nameWidth - 8, 'Printed name', filled ? party.person : null);
    signatureField(
      flow,
      x + nameWidth,
      fieldTop,
      columnWidth - nameWidth,
      'Date',
      filled ? issuedDate : null,
    );
  });
  flow.gap(height + 6);
}
