/**
 * The font files behind the text that Helvetica cannot draw: the @fontsource families split by
 * Unicode range, unpacked from WOFF and parsed once per process, and the file that draws a code point.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fontkit, { type Font } from '@pdf-lib/fontkit';

export type Weight = 400 | 700;

/** One font file of a family and the code points its CSS declares for it. */
type Slice = { file: string; ranges: [number, number][] };

const require = createRequire(import.meta.url);
const FAMILIES = [
  '@fontsource/noto-sans',
  '@fontsource/ibm-plex-sans-arabic',
  '@fontsource/noto-sans-sc',
];

function parseSlices(cssPath: string): Slice[] {
  const css = readFileSync(cssPath, 'utf8');
  const slices: Slice[] = [];
  for (const [block] of css.matchAll(/@font-face\s*\{[^}]*\}/g)) {
    const file = /url\(\.\/(files\/[^)]+\.woff)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !range) continue;
    const ranges = range.split(',').map((part): [number, number] => {
      const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(from, 16), parseInt(to, 16)];
    });
    slices.push({ file: join(dirname(cssPath), file), ranges });
  }
  return slices;
}

const slicesByWeight = new Map<Weight, Slice[]>();
function slicesOf(weight: Weight): Slice[] {
  let slices = slicesByWeight.get(weight);
  if (!slices) {
    slices = FAMILIES.flatMap((family) => parseSlices(require.resolve(`${family}/${weight}.css`)));
    slicesByWeight.set(weight, slices);
  }
  return slices;
}

/**
 * The TrueType font inside a WOFF file: its tables inflated once, so fontkit does not inflate a whole
 * table again for every glyph it reads.
 */
export function sfntOfWoff(woff: Uint8Array): Uint8Array {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const count = input.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + index * 20;
    const [offset, compressed, length] = [
      input.readUInt32BE(at + 4),
      input.readUInt32BE(at + 8),
      input.readUInt32BE(at + 12),
    ];
    const stored = input.subarray(offset, offset + compressed);
    return {
      tag: input.subarray(at, at + 4),
      checksum: input.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  let size = 12 + 16 * count;
  const offsets = tables.map(({ data }) => {
    const offset = size;
    size += (data.length + 3) & ~3;
    return offset;
  });
  const output = Buffer.alloc(size);
  const selector = Math.floor(Math.log2(count));
  input.copy(output, 0, 4, 8); // the flavour
  output.writeUInt16BE(count, 4);
  output.writeUInt16BE(16 * 2 ** selector, 6);
  output.writeUInt16BE(selector, 8);
  output.writeUInt16BE(16 * count - 16 * 2 ** selector, 10);
  tables.forEach(({ tag, checksum, data }, index) => {
    const at = 12 + 16 * index;
    tag.copy(output, at);
    output.writeUInt32BE(checksum, at + 4);
    output.writeUInt32BE(offsets[index], at + 8);
    output.writeUInt32BE(data.length, at + 12);
    data.copy(output, offsets[index]);
  });
  return new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
}

/** A font file's TrueType bytes and their parse, shared by every document of the process. */
export type LoadedSlice = { bytes: Uint8Array; font: Font };
const loaded = new Map<string, LoadedSlice>();
const byBytes = new WeakMap<Uint8Array, Font>();
function load(slice: Slice): LoadedSlice {
  let entry = loaded.get(slice.file);
  if (!entry) {
    const bytes = sfntOfWoff(new Uint8Array(readFileSync(slice.file)));
    entry = { bytes, font: fontkit.create(bytes) };
    byBytes.set(bytes, entry.font);
    loaded.set(slice.file, entry);
  }
  return entry;
}

/** fontkit for pdf-lib, answering the files above with their parse already made. */
export const cachingFontkit = {
  ...fontkit,
  create: (bytes: Uint8Array) => byBytes.get(bytes) ?? fontkit.create(bytes),
} as typeof fontkit;

const sliceFor = new Map<string, LoadedSlice | null>();
/** The first file that draws the code point in the weight, or null when none does. */
export function noto(weight: Weight, codePoint: number): LoadedSlice | null {
  const key = `${weight}:${codePoint}`;
  let found = sliceFor.get(key);
  if (found === undefined) {
    found = null;
    for (const slice of slicesOf(weight)) {
      if (!slice.ranges.some(([from, to]) => codePoint >= from && codePoint <= to)) continue;
      const candidate = load(slice);
      if (candidate.font.hasGlyphForCodePoint(codePoint)) {
        found = candidate;
        break;
      }
    }
    sliceFor.set(key, found);
  }
  return found;
}
