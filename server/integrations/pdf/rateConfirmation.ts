import { createHash } from 'node:crypto';
import { PDFDocument, type PDFImage } from 'pdf-lib';
import { Typesetter } from './fonts.ts';
import { drawFooters, Flow } from './pdfLayout.ts';
import { formatZoned, formatZonedDate, parseInstant } from './rateConfirmation.format.ts';
import {
  drawAccessorialTerms,
  drawPaymentTerms,
  drawPrice,
  drawSignatures,
  drawTerms,
} from './rateConfirmation.agreement.ts';
import {
  drawParties,
  drawRunningHeader,
  drawShipment,
  drawStops,
  drawTitle,
  PRODUCT_NAME,
} from './rateConfirmation.sections.ts';
import type {
  RateConfirmationInput,
  RateConfirmationParty,
  RateConfirmationStop,
} from './rateConfirmation.types.ts';

/**
 * The rate confirmation a carrier signs once its offer is accepted (GET
 * proposal/{id}/rate-confirmation): both parties, the stops, the shipment, the agreed price, the
 * terms and the signature area, on US Letter pages. Names print as written in any script the fonts
 * cover (fonts.ts), Arabic right to left. The same input always gives the same bytes:
 * dates come from `issuedAt`, and pdf-lib's resource names come from a generator with a fixed seed.
 */

export type { RateConfirmationInput, RateConfirmationParty, RateConfirmationStop };

export const sha256Hex = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex');

export async function renderRateConfirmation(input: RateConfirmationInput): Promise<Uint8Array> {
  const issuedAt = parseInstant(input.issuedAt, 'issuedAt');
  const doc = await PDFDocument.create({ updateMetadata: false });
  setMetadata(doc, input, issuedAt);
  const typesetter = await Typesetter.create(doc);
  const fonts = { regular: typesetter.regular, bold: typesetter.bold };
  const signature = await embedSignature(doc, input.shipperSignature);

  // Times of the document itself are read in the pickup's zone, where the shipment starts.
  const zone = input.stops[0]?.timezone ?? 'UTC';
  const flow = new Flow(doc, fonts);
  drawTitle(flow, input, formatZoned(input.issuedAt, zone));
  flow.onNewPage = (next) => drawRunningHeader(next, input.loadGuid);
  drawParties(flow, input);
  drawStops(flow, input.stops);
  drawShipment(flow, input);
  drawPrice(flow, input.price);
  if (input.accessorialTerms !== undefined) drawAccessorialTerms(flow, input.accessorialTerms);
  if (input.paymentTermsDays !== undefined) drawPaymentTerms(flow, input.paymentTermsDays);
  drawTerms(flow);
  drawSignatures(flow, input, signature, formatZonedDate(input.issuedAt, zone));
  drawFooters(doc, fonts, `Rate Confirmation · Load ${input.loadGuid} · ${PRODUCT_NAME}`);
  await typesetter.finish();
  return doc.save({ useObjectStreams: false });
}

function setMetadata(doc: PDFDocument, input: RateConfirmationInput, issuedAt: Date): void {
  doc.setTitle(`Rate Confirmation ${input.loadGuid}`, { showInWindowTitleBar: true });
  doc.setSubject(`Load ${input.loadGuid}`);
  doc.setAuthor(input.shipper.name);
  doc.setKeywords(['rate confirmation', input.loadGuid, input.loadId, input.proposalId]);
  doc.setCreator(PRODUCT_NAME);
  doc.setProducer(PRODUCT_NAME);
  doc.setLanguage('en-US');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);
}

/**
 * The shipper's stored signature, read by its leading bytes rather than the declared type. One
 * that cannot be decoded leaves the blank line to sign by hand instead of failing the document.
 */
async function embedSignature(
  doc: PDFDocument,
  signature: RateConfirmationInput['shipperSignature'],
): Promise<PDFImage | null> {
  if (!signature || signature.bytes.length === 0) return null;
  const { bytes } = signature;
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  try {
    return isPng || (!isJpeg && signature.mimeType === 'image/png')
      ? await doc.embedPng(bytes)
      : await doc.embedJpg(bytes);
  } catch {
    return null;
  }
}
