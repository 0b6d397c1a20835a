import {
  blockHeight,
  clampBlock,
  colors,
  drawBlock,
  lineHeightOf,
  wrapBlock,
  wrapText,
  type BlockLine,
  type Flow,
  type TextStyle,
} from './pdfLayout.ts';
import { type Cell, type Column, drawTable } from './pdfTable.ts';
import type {
  RateConfirmationInput,
  RateConfirmationParty,
  RateConfirmationStop,
} from './rateConfirmation.types.ts';
import { formatPounds, formatZoned } from './rateConfirmation.format.ts';

/**
 * The parts of the rate confirmation, top to bottom; each draws at the flow's cursor and moves it on.
 * The price, terms and signatures that close it are in rateConfirmation.agreement.ts.
 */
export const PRODUCT_NAME = 'Freight Marketplace';
export const SECTION_GAP = 10;

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
