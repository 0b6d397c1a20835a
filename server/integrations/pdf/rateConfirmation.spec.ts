import t from 'tap';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { Typesetter } from './fonts.ts';
import {
  renderRateConfirmation,
  sha256Hex,
  type RateConfirmationStop,
} from './rateConfirmation.ts';
import {
  jpegFixture,
  pngFixture,
  readPdf,
  sampleRateConfirmationInput,
  sampleStops,
  type ReadPdf,
} from './testing.ts';

const { pickup, dropoff } = sampleStops;
const input = sampleRateConfirmationInput;

/** Lines whose text, measured in its own fonts, crosses the 48-point side margins of US Letter. */
async function linesOffThePage(pdf: ReadPdf): Promise<string[]> {
  const { regular, bold } = await Typesetter.create(await PDFDocument.create());
  return pdf.runs
    .flat()
    .filter((run) => {
      const width = (/Bold/.test(run.font) ? bold : regular).widthOfTextAtSize(run.text, run.size);
      return run.x < 47.5 || run.x + width > 612 - 47.5;
    })
    .map((run) => run.text);
}

/** Lines drawn lower than the content area, other than the footer itself (baseline 30). */
const linesIntoTheFooter = (pdf: ReadPdf): string[] =>
  pdf.runs
    .flat()
    .filter((run) => run.y !== 30 && run.y < 54)
    .map((run) => run.text);

t.test(
  'a rate confirmation is a PDF with the metadata and every fact of the agreement',
  async (t) => {
    const bytes = await renderRateConfirmation(input);
    t.equal(Buffer.from(bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
    const pdf = await readPdf(bytes);
    t.equal(pdf.doc.getTitle(), 'Rate Confirmation L-000123');
    t.equal(pdf.doc.getSubject(), 'Load L-000123');
    t.equal(pdf.doc.getCreator(), 'Freight Marketplace');
    t.equal(pdf.doc.getCreationDate()?.toISOString(), '2026-11-28T21:12:00.000Z');
    t.equal(pdf.doc.getModificationDate()?.toISOString(), '2026-11-28T21:12:00.000Z');
    t.equal(pdf.doc.getPageCount(), 1);
    t.same(pdf.doc.getPage(0).getSize(), { width: 612, height: 792 }, 'US Letter');

    const expected = [
      'Rate Confirmation',
      'Load L-000123',
      'Issued 11/28/2026 03:12 PM CST',
      input.loadId,
      input.proposalId,
      'Prairie Foods Inc.',
      '100 W Monroe St, Chicago, IL 60603',
      'Contact: Morgan Lee',
      'E-mail: shipping@prairiefoods.example',
      'Phone: +1 312 555 0100',
      'Blue Ridge Haulers LLC',
      'Contact: Sam Carter',
      'MC # 123456',
      'DOT # 7654321',
      'Lakeside Cold Storage',
      '2400 S Halsted St, Chicago, IL 60608',
      'Dana Whitfield',
      'Pickup # PU-88231',
      '12/01/2026 08:00 AM CST',
      'to 12/01/2026 12:00 PM CST',
      'Harbor Point Distribution',
      'Dropoff # DO-1177',
      '12/03/2026 08:30 AM EST',
      'Reefer, Dry Van',
      'Full truckload',
      '42,000 lbs',
      'Frozen vegetables',
      'PO-99812',
      'Liftgate, Pallet Jack',
      'Truck 42 (Samsara)',
      'Keep at -10 F. Driver must call one hour before arrival.',
      '$1,234.50',
      'Payment terms: net 30 days',
      'signed proof of delivery (POD)',
      'Authorized signature',
      'Printed name',
      'Page 1 of 1',
    ];
    for (const text of expected) t.ok(pdf.text.includes(text), `shows "${text}"`);
    t.ok(
      pdf.text.indexOf('Lakeside Cold Storage') < pdf.text.indexOf('Harbor Point Distribution'),
      'stops in route order',
    );
    t.equal(pdf.imageCount, 0, 'no image without a shipper signature');
    t.same(await linesOffThePage(pdf), [], 'every line within the margins');
  },
);

t.test('the same input gives the same bytes, so its hash is stable', async (t) => {
  const first = await renderRateConfirmation(input);
  const second = await renderRateConfirmation(structuredClone(input));
  t.ok(Buffer.from(first).equals(Buffer.from(second)), 'identical bytes');
  t.match(sha256Hex(first), /^[0-9a-f]{64}$/);
  t.equal(sha256Hex(first), sha256Hex(second));
  t.equal(
    sha256Hex(new TextEncoder().encode('abc')),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  );

  const signed = {
    ...input,
    shipperSignature: { bytes: pngFixture(), mimeType: 'image/png' as const },
  };
  t.equal(
    sha256Hex(await renderRateConfirmation(signed)),
    sha256Hex(await renderRateConfirmation(signed)),
    'also with a signature image',
  );
  t.not(
    sha256Hex(await renderRateConfirmation({ ...input, price: 1234.51 })),
    sha256Hex(first),
    'another price is another document',
  );
});

t.test('a long stop list continues on further pages with the table header repeated', async (t) => {
  const stops = Array.from(
    { length: 30 },
    (_, index): RateConfirmationStop => ({
      ...(index === 0
        ? pickup
        : index === 29
          ? dropoff
          : {
              ...pickup,
              locationType: index < 15 ? 2 : 3,
              typeName: index < 15 ? 'Extra Pickup Stop' : 'Extra Dropoff Stop',
              number: null,
            }),
      name: `Facility number ${index + 1}`,
      windowStart: new Date(Date.UTC(2026, 11, 1, 14 + index)).toISOString(),
    }),
  );
  const pdf = await readPdf(await renderRateConfirmation({ ...input, stops }));
  const pageCount = pdf.doc.getPageCount();
  t.ok(pageCount > 1, `${pageCount} pages`);
  let position = -1;
  for (let number = 1; number <= 30; number++) {
    const at = pdf.text.indexOf(`Facility number ${number}\n`);
    t.ok(at > position, `stop ${number} shown after stop ${number - 1}`);
    position = at;
  }
  t.ok(pdf.pages[1].includes('Rate Confirmation · Load L-000123 (continued)'), 'running header');
  t.ok(pdf.pages[1].includes('Facility and address'), 'the table header again');
  t.ok(pdf.pages[pageCount - 1].includes(`Page ${pageCount} of ${pageCount}`));
  t.ok(pdf.text.includes('$1,234.50'));
  t.same(await linesOffThePage(pdf), [], 'every line within the side margins');
  t.same(linesIntoTheFooter(pdf), [], 'nothing drawn over the footer');
});

t.test('the shipper signature image is embedded and drawn, as PNG or JPEG', async (t) => {
  for (const [mimeType, bytes] of [
    ['image/png', pngFixture()],
    ['image/jpeg', jpegFixture()],
  ] as const) {
    const pdf = await readPdf(
      await renderRateConfirmation({ ...input, shipperSignature: { bytes, mimeType } }),
    );
    t.equal(pdf.imageCount, 1, `${mimeType} image object`);
    t.match(pdf.contents.join('\n'), /\/Image-\d+ Do/, `${mimeType} drawn on the page`);
    t.ok(
      pdf.text.includes('Printed name\nMorgan Lee\nDate\n11/28/2026'),
      "the shipper's name and the issue date filled in",
    );
  }
  // A PNG declared as JPEG is still read by its signature bytes.
  const mislabelled = await readPdf(
    await renderRateConfirmation({
      ...input,
      shipperSignature: { bytes: pngFixture(), mimeType: 'image/jpeg' },
    }),
  );
  t.equal(mislabelled.imageCount, 1);
});

t.test('without a readable signature the shipper gets a blank line, not an error', async (t) => {
  for (const shipperSignature of [
    null,
    { bytes: new Uint8Array([1, 2, 3, 4]), mimeType: 'image/png' as const },
  ]) {
    const pdf = await readPdf(await renderRateConfirmation({ ...input, shipperSignature }));
    t.equal(pdf.imageCount, 0);
    t.notMatch(pdf.contents.join('\n'), / Do\b/, 'no image drawn');
    t.ok(
      pdf.text.includes('Authorized signature\nPrinted name\nDate\nCARRIER'),
      'shipper name and date left blank',
    );
  }
});

t.test('names in Arabic and Chinese print as written, Arabic right to left', async (t) => {
  const arabic = 'شركة النقل السريع';
  const chinese = '北京货运有限公司';
  const bytes = await renderRateConfirmation({
    ...input,
    shipper: {
      ...input.shipper,
      name: arabic,
      person: 'محمد علي',
      address: 'شارع الملك فهد 42، الرياض 12345',
    },
    carrier: { ...input.carrier, name: chinese, person: '王伟', address: '北京市朝阳区建国路88号' },
    stops: [{ ...pickup, name: 'مستودع السلام (الرئيسي) رقم 7' }, dropoff],
    commodity: 'خضروات مجمدة',
  });
  const pdf = await readPdf(bytes);
  const lines = pdf.text.split('\n');
  t.equal(
    lines.filter((line) => line === arabic).length,
    2,
    'the Arabic name, in its box and at its signature line',
  );
  t.equal(
    lines.filter((line) => line === chinese).length,
    2,
    'the Chinese name, in its box and at its signature line',
  );
  for (const text of [
    'Contact: محمد علي',
    'شارع الملك فهد 42، الرياض 12345',
    'Contact: 王伟',
    '北京市朝阳区建国路88号',
    'مستودع السلام (الرئيسي) رقم 7',
    'خضروات مجمدة',
  ])
    t.ok(lines.includes(text), `shows "${text}"`);
  t.notOk(pdf.text.includes('?'), 'no character replaced');

  // Drawn left to right, the Arabic name starts with its last letter; digits keep their order.
  const drawn = (text: string) => pdf.runs.flat().find((run) => run.text === text)?.drawn ?? '';
  t.ok(drawn(arabic).startsWith('ع'), 'the Arabic name is drawn right to left');
  t.ok(
    drawn(arabic).endsWith('ش') || drawn(arabic).endsWith('شر'),
    'its first letter drawn rightmost',
  );
  t.ok(
    drawn('شارع الملك فهد 42، الرياض 12345').startsWith('12345 '),
    'Latin digits in an Arabic address read left to right, at its end',
  );
  t.ok(
    drawn('Contact: محمد علي').startsWith('Contact: '),
    'a Latin label stays before an Arabic name',
  );

  // Only the font files the names need are embedded, each a subset: the document stays small.
  const fontFiles = pdf.doc.context
    .enumerateIndirectObjects()
    .filter(
      ([, object]) =>
        object instanceof PDFDict && object.get(PDFName.of('FontFile2')) !== undefined,
    ).length;
  t.ok(fontFiles >= 2, `${fontFiles} embedded font files`);
  t.ok(bytes.length < 150_000, `${bytes.length} bytes`);
  t.same(await linesOffThePage(pdf), [], 'every line within the margins');
});

t.test('a document in Latin letters embeds no font: only Helvetica draws it', async (t) => {
  const pdf = await readPdf(await renderRateConfirmation(input));
  const fontFiles = pdf.doc.context
    .enumerateIndirectObjects()
    .filter(
      ([, object]) =>
        object instanceof PDFDict && object.get(PDFName.of('FontFile2')) !== undefined,
    );
  t.equal(fontFiles.length, 0);
  t.ok(
    pdf.runs.flat().every((run) => run.font.startsWith('Helvetica')),
    'every line in Helvetica',
  );
});

t.test(
  'text of other scripts prints as written; what no font has is replaced, never thrown',
  async (t) => {
    const bytes = await renderRateConfirmation({
      ...input,
      shipper: { ...input.shipper, name: '北京物流 Ltd', person: 'Zoë Ōtsuka' },
      carrier: { ...input.carrier, name: 'Грузовик ООО' },
      stops: [
        { ...pickup, name: 'Café Müller \u{1F69A}', address: 'Straße\u200B 1\tSuite 2' },
        dropoff,
      ],
      description: 'Fragile — handle with care…\r\nSecond line',
    });
    const pdf = await readPdf(bytes);
    t.ok(pdf.text.includes('北京物流 Ltd'), 'Chinese and Latin on one line');
    t.ok(pdf.text.includes('Contact: Zoë Ōtsuka'), 'accents outside WinAnsi kept');
    t.ok(pdf.text.includes('Грузовик ООО'), 'Cyrillic kept');
    t.ok(
      pdf.text.includes('Café Müller ?'),
      'WinAnsi accents kept, the emoji no font has is one ?',
    );
    t.ok(pdf.text.includes('Straße 1 Suite 2'), 'zero-width space dropped, tab made a space');
    t.ok(
      pdf.text.includes('Fragile — handle with care…\nSecond line'),
      'dash and ellipsis kept, line break kept',
    );
    t.equal(pdf.doc.getAuthor(), '北京物流 Ltd', 'metadata keeps the real name');
  },
);

t.test('long text is wrapped within the page and flows to further pages', async (t) => {
  const words = Array.from({ length: 1500 }, (_, index) => `word${index}`);
  const pdf = await readPdf(
    await renderRateConfirmation({
      ...input,
      description: words.join(' '),
      commodity: 'X'.repeat(300),
    }),
  );
  t.ok(pdf.doc.getPageCount() > 1);
  t.same(await linesOffThePage(pdf), [], 'no line runs off the page');
  t.same(linesIntoTheFooter(pdf), [], 'nothing drawn over the footer');
  const runs = pdf.text.split('\n');
  t.equal(
    runs.filter((run) => run.startsWith('word')).join(' '),
    words.join(' '),
    'every word, in order',
  );
  t.equal(
    runs.filter((run) => /^X+$/.test(run)).join(''),
    'X'.repeat(300),
    'an unbroken word is split, not lost',
  );
});

t.test('an issue date that is not an instant is refused', async (t) => {
  await t.rejects(renderRateConfirmation({ ...input, issuedAt: 'yesterday' }), RangeError);
});
