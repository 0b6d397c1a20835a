import type { PDFImage } from 'pdf-lib';
import {
  blockHeight,
  clampBlock,
  colors,
  drawBlock,
  drawTable,
  drawTextLine,
  lineHeightOf,
  wrapBlock,
  wrapText,
  type BlockLine,
  type Cell,
  type Column,
  type Flow,
  type TextStyle,
} from './pdfLayout.ts';
import type {
  RateConfirmationInput,
  RateConfirmationParty,
  RateConfirmationStop,
} from './rateConfirmation.types.ts';
import { formatPounds, formatUsd, formatZoned } from './rateConfirmation.format.ts';

/** The parts of the rate confirmation, top to bottom; each draws at the flow's cursor and moves it on. */

export const PRODUCT_NAME = 'Freight Marketplace';
const SECTION_GAP = 10;

export const TERMS = [
  'Carrier agrees to transport the shipment above at the agreed rate, all charges included unless Shipper approves others in writing.',
  "Payment terms: net 30 days from Shipper's receipt of Carrier's invoice and the signed proof of delivery (POD).",
  "Carrier shall not re-broker, assign or interline this shipment without Shipper's prior written consent.",
  'Carrier holds valid operating authority and the insurance required by law, and keeps both in force until delivery.',
  'Carrier is liable for the goods from pickup to delivery and shall report any delay, accident, shortage or damage to Shipper at once.',
  'Carrier accepts by signing this confirmation and returning it through Freight Marketplace before pickup.',
  'This confirmation and the Freight Marketplace terms of use form the entire agreement for this shipment.',
];

export function drawTitle(flow: Flow, input: RateConfirmationInput, issued: string): void {
  const { regular, bold } = flow.fonts;
  const left: BlockLine[] = [
    { text: 'Rate Confirmation', style: { font: bold, size: 22 } },
    { text: PRODUCT_NAME, style: { font: regular, size: 9, color: colors.muted } },
  ];
  const rightWidth = flow.width - 250;
  const right = [
    ...wrapBlock(
      [{ text: `Load ${input.loadGuid}`, style: { font: bold, size: 13, color: colors.accent } }],
      rightWidth,
    ).slice(0, 1),
    ...wrapBlock(
      [{ text: `Issued ${issued}`, style: { font: regular, size: 9, color: colors.muted } }],
      rightWidth,
    ).slice(0, 1),
  ];
  drawBlock(flow.page, left, flow.left, flow.y);
  let top = flow.y - 4;
  for (const line of right) {
    drawBlock(
      flow.page,
      [line],
      flow.right - line.style.font.widthOfTextAtSize(line.text, line.style.size),
      top,
    );
    top -= lineHeightOf(line.style.size);
  }
  flow.gap(blockHeight(left) + 2);
  flow.paragraph(`Load ID ${input.loadId}   ·   Proposal ID ${input.proposalId}`, {
    font: regular,
    size: 7.5,
    color: colors.muted,
  });
  flow.gap(2);
  flow.rule(colors.text, 1.25);
  flow.gap(SECTION_GAP);
}

export function drawRunningHeader(flow: Flow, loadGuid: string): void {
  flow.paragraph(`Rate Confirmation · Load ${loadGuid} (continued)`, {
    font: flow.fonts.regular,
    size: 9,
    color: colors.muted,
  });
  flow.gap(3);
  flow.rule();
  flow.gap(SECTION_GAP);
}

function partyLines(
  flow: Flow,
  label: string,
  party: RateConfirmationParty,
  width: number,
  isCarrier: boolean,
): BlockLine[] {
  const { regular, bold } = flow.fonts;
  const small: TextStyle = { font: regular, size: 9 };
  const authority = [
    party.mcNumber != null ? `MC # ${party.mcNumber}` : isCarrier ? 'MC # not provided' : null,
    party.dotNumber != null ? `DOT # ${party.dotNumber}` : isCarrier ? 'DOT # not provided' : null,
  ]
    .filter((part) => part !== null)
    .join('   ·   ');
  return wrapBlock(
    [
      { text: label, style: { font: bold, size: 8.5, color: colors.accent } },
      { text: party.name, style: { font: bold, size: 11 } },
      { text: party.address, style: small },
      { text: `Contact: ${party.person}`, style: small },
      { text: `E-mail: ${party.email}`, style: small },
      { text: `Phone: ${party.phone}`, style: small },
      ...(authority ? [{ text: authority, style: small }] : []),
    ],
    width,
  ).slice(0, 16);
}

export function drawParties(flow: Flow, input: RateConfirmationInput): void {
  const padding = 8;
  const columnWidth = (flow.width - 12) / 2;
  const blocks = [
    partyLines(flow, 'SHIPPER', input.shipper, columnWidth - 2 * padding, false),
    partyLines(flow, 'CARRIER', input.carrier, columnWidth - 2 * padding, true),
  ];
  const height = Math.max(...blocks.map(blockHeight)) + 2 * padding;
  flow.ensure(height);
  blocks.forEach((lines, index) => {
    const x = flow.left + index * (columnWidth + 12);
    flow.page.drawRectangle({
      x,
      y: flow.y - height,
      width: columnWidth,
      height,
      borderColor: colors.rule,
      borderWidth: 0.75,
    });
    drawBlock(flow.page, lines, x + padding, flow.y - padding);
  });
  flow.gap(height + SECTION_GAP);
}

const stopColumns: Column[] = [
  { header: '#', width: 20 },
  { header: 'Type', width: 80 },
  { header: 'Facility and address', width: 170 },
  { header: 'Contact and number', width: 114 },
  { header: 'Window', width: 132 },
];

function stopRow(stop: RateConfirmationStop, index: number): Cell[] {
  const isPickup = stop.locationType === 1 || stop.locationType === 2;
  const contact: Cell = [
    ...(stop.contactName ? [{ text: stop.contactName }] : []),
    ...(stop.contactPhone ? [{ text: stop.contactPhone }] : []),
    ...(stop.number
      ? [{ text: `${isPickup ? 'Pickup' : 'Dropoff'} # ${stop.number}`, bold: true }]
      : []),
  ];
  return [
    [{ text: String(index + 1), bold: true }],
    [{ text: stop.typeName, bold: true }],
    [{ text: stop.name, bold: true }, { text: stop.address }],
    contact.length > 0 ? contact : [{ text: '—', muted: true }],
    [
      { text: formatZoned(stop.windowStart, stop.timezone) },
      ...(stop.windowEnd
        ? [{ text: `to ${formatZoned(stop.windowEnd, stop.timezone)}`, muted: true }]
        : []),
    ],
  ];
}

export function drawStops(flow: Flow, stops: RateConfirmationStop[]): void {
  flow.heading(`Stops (${stops.length})`, 60);
  if (stops.length === 0)
    flow.paragraph('No stops were given.', {
      font: flow.fonts.regular,
      size: 9,
      color: colors.muted,
    });
  else drawTable(flow, stopColumns, stops.map(stopRow));
  flow.gap(SECTION_GAP);
}

/** Label and value pairs two to a row; the free-text notes get the full width below them. */
export function drawShipment(flow: Flow, input: RateConfirmationInput): void {
  const label: TextStyle = { font: flow.fonts.bold, size: 8.5, color: colors.muted };
  const value: TextStyle = { font: flow.fonts.regular, size: 9 };
  const labelWidth = 86;
  const columnWidth = (flow.width - 16) / 2;
  const maxLines = Math.floor(flow.pageCapacity / lineHeightOf(value.size));
  const fields: [string, string][] = [
    ['Equipment', input.equipment.length > 0 ? input.equipment.join(', ') : 'Not specified'],
    ['Load type', input.loadType],
    ['Weight', formatPounds(input.weight)],
    ['Commodity', input.commodity],
    ['Reference number', input.refNumber || '—'],
    ['Accessories', input.accessories.length > 0 ? input.accessories.join(', ') : 'None'],
    ...(input.eldTruckName ? [['ELD truck', input.eldTruckName] as [string, string]] : []),
  ];
  flow.heading('Shipment');
  for (let index = 0; index < fields.length; index += 2) {
    const cells = fields.slice(index, index + 2).map(([name, text]) => ({
      label: wrapText(label, name, labelWidth - 6)
        .slice(0, 2)
        .map((line): BlockLine => ({ text: line, style: label })),
      value: clampBlock(
        wrapBlock([{ text, style: value }], columnWidth - labelWidth),
        maxLines,
        columnWidth - labelWidth,
      ),
    }));
    const height =
      Math.max(...cells.flatMap((cell) => [blockHeight(cell.label), blockHeight(cell.value)])) + 3;
    flow.ensure(height);
    cells.forEach((cell, column) => {
      const x = flow.left + column * (columnWidth + 16);
      drawBlock(flow.page, cell.label, x, flow.y - 0.5);
      drawBlock(flow.page, cell.value, x + labelWidth, flow.y);
    });
    flow.gap(height);
  }
  flow.hanging('Notes', label, input.description.trim() || 'None', value, labelWidth);
  flow.gap(SECTION_GAP);
}

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
