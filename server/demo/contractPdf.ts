import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/** A one-page signed carrier contract for a demo shipment: a small, valid PDF. */
export async function demoContractPdf(details: {
  guid: string;
  lane: string;
  commodity: string;
  price: number;
  carrier: string;
  shipper: string;
  signedBy: string;
  signedAt: string;
}): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.setTitle(`Signed rate confirmation ${details.guid}`);
  document.setAuthor(details.carrier);
  document.setCreationDate(new Date(details.signedAt));
  document.setModificationDate(new Date(details.signedAt));
  const page = document.addPage([612, 792]);
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.06, 0.09, 0.16);
  let y = 720;
  const line = (
    text: string,
    options: { size?: number; font?: typeof regular; gap?: number } = {},
  ) => {
    page.drawText(text, {
      x: 64,
      y,
      size: options.size ?? 12,
      font: options.font ?? regular,
      color: ink,
    });
    y -= options.gap ?? 22;
  };
  line('Rate confirmation and carrier agreement', { size: 20, font: bold, gap: 36 });
  line(`Load ${details.guid}`, { font: bold });
  line(`Shipper: ${details.shipper}`);
  line(`Carrier: ${details.carrier}`);
  line(`Lane: ${details.lane}`);
  line(`Commodity: ${details.commodity}`);
  line(`All-in rate: $${details.price.toFixed(2)} (USD)`, { font: bold, gap: 36 });
  line(
    'The carrier accepts the load on the terms above and the marketplace terms and conditions.',
    { size: 10, gap: 48 },
  );
  page.drawLine({
    start: { x: 64, y: y + 6 },
    end: { x: 320, y: y + 6 },
    thickness: 1,
    color: ink,
  });
  line(`Signed by ${details.signedBy}, ${details.signedAt.slice(0, 10)}`, { size: 10 });
  return Buffer.from(await document.save());
}
