import { crc32, deflateSync, inflateSync } from 'node:zlib';
import bidiModule, { type Bidi } from 'bidi-js';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  type PDFObject,
  type PDFPage,
} from 'pdf-lib';
import type { RateConfirmationInput, RateConfirmationStop } from './rateConfirmation.ts';

/**
 * Test helpers that read a generated PDF the way a viewer would: the text each page shows (decoded
 * from its compressed content streams with node:zlib, not with pdf-lib's own decoder, through each
 * embedded font's ToUnicode map, and put back in reading order where it runs right to left) and the
 * images it holds; tiny valid PNG and JPEG files built byte by byte; and a sample two-stop input.
 */

// The standard fonts write WinAnsi codes, which are windows-1252.
const winAnsi = new TextDecoder('windows-1252');

function streamBytes(stream: PDFRawStream): Uint8Array {
  const filter = stream.dict.get(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  if (filters.length === 0) return stream.contents;
  if (filters.length === 1 && filters[0] === PDFName.of('FlateDecode'))
    return inflateSync(stream.contents);
  throw new Error(`Unexpected stream filter ${String(filter)}`);
}

/**
 * A line of text as drawn: its (first) font resource name, size, position, its text in reading
 * order, and its text in the order the glyphs are drawn from left to right.
 */
export type TextRun = {
  font: string;
  size: number;
  x: number;
  y: number;
  text: string;
  drawn: string;
};

/** Turns the bytes of a shown string into text, per font resource name. */
type Decoder = (bytes: Uint8Array) => string[];
const decodeWinAnsi: Decoder = (bytes) => [...winAnsi.decode(bytes)];
const utf16 = new TextDecoder('utf-16be');
const hexBytes = (hex: string): Uint8Array =>
  Uint8Array.from(hex.replace(/\s/g, '').match(/../g) ?? [], (pair) => parseInt(pair, 16));

/** A ToUnicode CMap's `bfchar` and `bfrange` entries, for two-byte codes (Identity-H). */
export function parseToUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const [, body] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, target] of body.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>/g))
      map.set(parseInt(code, 16), utf16.decode(hexBytes(target)));
  }
  for (const [, body] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, target, list] of body.matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(?:<([0-9A-Fa-f]*)>|\[([^\]]*)\])/g,
    )) {
      const start = parseInt(from, 16);
      const end = parseInt(to, 16);
      if (list !== undefined) {
        for (const [index, [, item]] of [...list.matchAll(/<([0-9A-Fa-f]*)>/g)].entries())
          map.set(start + index, utf16.decode(hexBytes(item)));
      } else {
        const first = hexBytes(target);
        for (let code = start; code <= end; code++) {
          const bytes = first.slice();
          bytes[bytes.length - 1] += code - start;
          map.set(code, utf16.decode(bytes));
        }
      }
    }
  }
  return map;
}

function decoderOf(doc: PDFDocument, font: PDFObject | undefined): Decoder {
  const dict = font ? doc.context.lookup(font) : undefined;
  const toUnicode = dict instanceof PDFDict ? dict.get(PDFName.of('ToUnicode')) : undefined;
  const stream = toUnicode ? doc.context.lookup(toUnicode) : undefined;
  if (!(stream instanceof PDFRawStream)) return decodeWinAnsi;
  const map = parseToUnicode(Buffer.from(streamBytes(stream)).toString('latin1'));
  return (bytes) => {
    const glyphs: string[] = [];
    for (let index = 0; index + 1 < bytes.length; index += 2)
      glyphs.push(map.get((bytes[index] << 8) | bytes[index + 1]) ?? '\uFFFD');
    return glyphs;
  };
}

/** A decoder for each font resource of the page. */
function pageDecoders(doc: PDFDocument, page: PDFPage): Map<string, Decoder> {
  const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  return new Map(
    (fonts?.entries() ?? []).map(([name, font]) => [name.decodeText(), decoderOf(doc, font)]),
  );
}

const stringBytes = (hex: string | undefined, literal: string | undefined): Uint8Array =>
  hex !== undefined
    ? hexBytes(hex)
    : Uint8Array.from((literal ?? '').replace(/\\(.)/g, '$1'), (char) => char.charCodeAt(0));

const bidiExport = bidiModule as unknown as (() => Bidi) | { default: () => Bidi };
const bidi = (typeof bidiExport === 'function' ? bidiExport : bidiExport.default)();

/**
 * A line drawn in display order, given as the text of each glyph, read back in logical order as a
 * viewer does (Unicode bidi algorithm). A glyph's text stays whole: a ligature such as lam-alef
 * maps to its letters in logical order already.
 */
function readingOrder(glyphs: string[]): string {
  const line = glyphs.join('');
  if (!/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/.test(line)) return line;
  const glyphAt: number[] = glyphs.flatMap((glyph, index) =>
    Array.from({ length: glyph.length }, () => index),
  );
  const levels = bidi.getEmbeddingLevels(line, 'auto');
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
  const seen = new Set<number>();
  let result = '';
  for (const at of bidi.getReorderedIndices(line, levels)) {
    const glyph = glyphAt[at];
    if (seen.has(glyph)) continue;
    seen.add(glyph);
    result += glyphs[glyph].length === 1 ? (mirrored.get(at) ?? glyphs[glyph]) : glyphs[glyph];
  }
  return result;
}

/**
 * The text lines of a content stream in order: the `Tj` strings after one text position (`Tm`)
 * form one line, whatever fonts (`Tf`) they switch between, with the first font and the position.
 */
export function textRuns(content: string, decoders: Map<string, Decoder> = new Map()): TextRun[] {
  let font = '';
  let size = 0;
  let x = 0;
  let y = 0;
  type Line = Omit<TextRun, 'text' | 'drawn'> & { glyphs: string[] };
  let current: Line | null = null;
  const lines: Line[] = [];
  const operators =
    /\/(\S+) ([\d.]+) Tf|[\d.-]+ [\d.-]+ [\d.-]+ [\d.-]+ ([\d.-]+) ([\d.-]+) Tm|<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj|\bET\b/g;
  for (const match of content.matchAll(operators)) {
    if (match[1] !== undefined) [font, size] = [match[1], Number(match[2])];
    else if (match[3] !== undefined) {
      [x, y] = [Number(match[3]), Number(match[4])];
      current = null;
    } else if (match[0] === 'ET') current = null;
    else {
      const glyphs = (decoders.get(font) ?? decodeWinAnsi)(stringBytes(match[5], match[6]));
      if (current) current.glyphs.push(...glyphs);
      else lines.push((current = { font, size, x, y, glyphs }));
    }
  }
  return lines.map(({ glyphs, ...run }) => ({
    ...run,
    text: readingOrder(glyphs),
    drawn: glyphs.join(''),
  }));
}

export type ReadPdf = {
  doc: PDFDocument;
  /** Each page's decoded content streams, joined. */
  contents: string[];
  /** Each page's text runs (one per drawn line). */
  runs: TextRun[][];
  /** Each page's text runs joined with line breaks. */
  pages: string[];
  /** All pages' text. */
  text: string;
  /** Objects with /Subtype /Image. */
  imageCount: number;
};

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const { context } = doc;
  const resolve = (object: PDFObject | undefined): PDFObject[] => {
    if (object instanceof PDFArray) return object.asArray().flatMap((item) => resolve(item));
    const target = object ? context.lookup(object) : undefined;
    if (target instanceof PDFArray) return resolve(target);
    return target ? [target] : [];
  };
  const contents = doc.getPages().map((page) =>
    resolve(page.node.Contents())
      .map((stream) => {
        if (!(stream instanceof PDFRawStream)) throw new Error('Expected a raw content stream');
        return Buffer.from(streamBytes(stream)).toString('latin1');
      })
      .join('\n'),
  );
  const runs = contents.map((content, index) =>
    textRuns(content, pageDecoders(doc, doc.getPage(index))),
  );
  const pages = runs.map((page) => page.map((run) => run.text).join('\n'));
  const imageCount = context
    .enumerateIndirectObjects()
    .filter(
      ([, object]) =>
        object instanceof PDFRawStream &&
        object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
    ).length;
  return { doc, contents, runs, pages, text: pages.join('\n'), imageCount };
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid 8-bit RGB PNG of one colour, without alpha. */
export function pngFixture(
  width = 24,
  height = 8,
  colour: readonly [number, number, number] = [26, 79, 138],
): Uint8Array {
  return pngImage(width, height, () => colour);
}

/** A valid 8-bit RGB PNG without alpha, each pixel's colour given by `pixel(x, y)`. */
export function pngImage(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly [number, number, number],
): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, filter 0, no interlace
  // Each row: filter byte 0, then its pixels.
  const pixels = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      pixels.set(
        pixel(x, y).map((value) => Math.round(value)),
        y * (width * 3 + 1) + 1 + x * 3,
      );
  }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(pixels)),
      pngChunk('IEND', new Uint8Array()),
    ]),
  );
}

/**
 * A valid baseline JPEG: one 8 × 8 grey block. Each Huffman table has a single one-bit code, so
 * the block is "DC difference 0" then "end of block": the two bits 00, padded with ones (0x3f).
 */
export function jpegFixture(): Uint8Array {
  const segment = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const oneCodeTable = (tableClassAndId: number) => [
    tableClassAndId,
    1,
    ...new Array(15).fill(0),
    0x00,
  ];
  return Uint8Array.from([
    0xff,
    0xd8, // start of image
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]), // quantisation table 0, all ones
    ...segment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // baseline frame: 8 bits, 8 × 8, one component
    ...segment(0xc4, oneCodeTable(0x00)), // DC table 0
    ...segment(0xc4, oneCodeTable(0x10)), // AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // scan of component 1
    0x3f,
    0xff,
    0xd9, // end of image
  ]);
}

const pickup: RateConfirmationStop = {
  locationType: 1,
  typeName: 'Pickup Location',
  name: 'Lakeside Cold Storage',
  address: '2400 S Halsted St, Chicago, IL 60608',
  contactName: 'Dana Whitfield',
  contactPhone: '+1 312 555 0142',
  number: 'PU-88231',
  windowStart: '2026-12-01T14:00:00.000Z',
  windowEnd: '2026-12-01T18:00:00.000Z',
  timezone: 'America/Chicago',
};
const dropoff: RateConfirmationStop = {
  locationType: 4,
  typeName: 'Dropoff Location',
  name: 'Harbor Point Distribution',
  address: '90 Port Jersey Blvd, Jersey City, NJ 07305',
  contactName: null,
  contactPhone: null,
  number: 'DO-1177',
  windowStart: '2026-12-03T13:30:00.000Z',
  windowEnd: null,
  timezone: 'America/New_York',
};

/** A two-stop load from Chicago to Jersey City, without a signature image. */
export const sampleRateConfirmationInput: RateConfirmationInput = {
  loadGuid: 'L-000123',
  loadId: '5b0c1a7e-2f4d-4e7a-9d43-0c8f2b6a1e11',
  proposalId: 'a3e9d2c4-7b1f-4c55-8e2a-6f0d9b3c7a22',
  issuedAt: '2026-11-28T21:12:00.000Z',
  shipper: {
    name: 'Prairie Foods Inc.',
    address: '100 W Monroe St, Chicago, IL 60603',
    person: 'Morgan Lee',
    email: 'shipping@prairiefoods.example',
    phone: '+1 312 555 0100',
  },
  carrier: {
    name: 'Blue Ridge Haulers LLC',
    address: '12 Depot Rd, Roanoke, VA 24012',
    person: 'Sam Carter',
    email: 'dispatch@blueridge.example',
    phone: '+1 540 555 0199',
    mcNumber: 123456,
    dotNumber: 7654321,
  },
  stops: [pickup, dropoff],
  equipment: ['Reefer', 'Dry Van'],
  accessories: ['Liftgate', 'Pallet Jack'],
  loadType: 'Full truckload',
  weight: 42000,
  commodity: 'Frozen vegetables',
  refNumber: 'PO-99812',
  description: 'Keep at -10 F. Driver must call one hour before arrival.',
  price: 1234.5,
  eldTruckName: 'Truck 42 (Samsara)',
  shipperSignature: null,
};

export const sampleStops = { pickup, dropoff };
