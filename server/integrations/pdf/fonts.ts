import bidiModule, { type Bidi } from 'bidi-js';
import {
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  StandardFonts,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import { cachingFontkit, type LoadedSlice, noto, type Weight } from './fontFiles.ts';

/**
 * Text in any script the product accepts. Characters Helvetica has (WinAnsi) are drawn in Helvetica
 * as before; the others in Noto Sans (Latin beyond WinAnsi, Greek, Cyrillic, Vietnamese,
 * Devanagari), IBM Plex Sans Arabic (its letters are whole glyphs, one per joining form, so a viewer
 * maps each back to its letter) or Noto Sans SC. Those families ship split into files by Unicode
 * range (the @fontsource packages' CSS lists each file's `unicode-range`), so a document embeds only
 * the files its text needs, each subset to the glyphs drawn. Files are read and parsed once per
 * process. Each line is ordered for display with the Unicode bidi algorithm, so Arabic reads right
 * to left (shaped into its joining forms by fontkit) with Latin digits and words left to right.
 * The font files and their loading are in fontFiles.ts.
 */

// bidi-js is CommonJS; depending on the loader its factory is the default export or inside it.
const bidiExport = bidiModule as unknown as (() => Bidi) | { default: () => Bidi };
const bidi = (typeof bidiExport === 'function' ? bidiExport : bidiExport.default)();
/** Characters of scripts written right to left, or that make the bidi algorithm necessary. */
const BIDI_RELEVANT =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200e\u200f\u061c]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const RTL_SCRIPT = /[\p{sc=Arabic}\p{sc=Hebrew}\p{sc=Syriac}\p{sc=Thaana}\p{sc=Nko}]/u;
const REAL_SCRIPT = /[^\p{sc=Common}\p{sc=Inherited}\p{sc=Unknown}]/u;
/** Whether fontkit lays the text out right to left, which it decides by its first letter of a real script. */
const fontkitReverses = (text: string): boolean =>
  RTL_SCRIPT.test(REAL_SCRIPT.exec(text)?.[0] ?? '');
const JOINERS = /[\u200c\u200d]/;
const ATTACHES = /[\p{M}\u200c\u200d]/u;

/** A run of one line in one font, in display order, as given to the font's encoder. */
type Piece = { font: PDFFont | LoadedSlice; text: string };

const isSlice = (font: PDFFont | LoadedSlice): font is LoadedSlice => 'bytes' in font;

/** A weight of the document's type: measures text and draws it once the document's fonts are known. */
export class Face {
  private readonly characters: ReadonlySet<number>;

  readonly typesetter: Typesetter;
  readonly standard: PDFFont;
  readonly weight: Weight;

  constructor(typesetter: Typesetter, standard: PDFFont, weight: Weight) {
    this.typesetter = typesetter;
    this.standard = standard;
    this.weight = weight;
    this.characters = new Set(standard.getCharacterSet());
  }

  private fontOf(codePoint: number): PDFFont | LoadedSlice | null {
    return this.characters.has(codePoint) ? this.standard : noto(this.weight, codePoint);
  }

  /**
   * The text with what no font draws replaced: invisible format characters other than the Arabic
   * joiners are dropped, other spaces and control characters become a space, a letter whose accent
   * no font has loses it ("ő" → "o") and anything else becomes "?". Line breaks are kept.
   */
  printable(text: string): string {
    let result = '';
    for (const char of text.replace(/\r\n?|[\u2028\u2029]/g, '\n')) {
      const codePoint = char.codePointAt(0)!;
      if (char === '\n' || this.characters.has(codePoint) || JOINERS.test(char)) result += char;
      else if (/\p{Cf}/u.test(char)) continue;
      else if (/[\p{Cc}\p{Z}]/u.test(char)) result += ' ';
      else if (this.fontOf(codePoint)) result += char;
      else {
        const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
        result += base && [...base].every((part) => this.fontOf(part.codePointAt(0)!)) ? base : '?';
      }
    }
    return result;
  }

  /** One printable line cut into runs of one font each, in the order they are drawn left to right. */
  pieces(line: string): Piece[] {
    const chars = [...line];
    if (
      !BIDI_RELEVANT.test(line) &&
      chars.every((char) => this.characters.has(char.codePointAt(0)!))
    ) {
      return line ? [{ font: this.standard, text: line }] : [];
    }
    // The font of each character; joiners stay with the letter before them (they steer its shaping),
    // and so do marks when its font has them.
    const fonts = new Map<number, PDFFont | LoadedSlice>();
    let index = 0;
    let previous: PDFFont | LoadedSlice | null = null;
    for (const char of chars) {
      const codePoint = char.codePointAt(0)!;
      const font: PDFFont | LoadedSlice =
        previous &&
        isSlice(previous) &&
        (JOINERS.test(char) ||
          (ATTACHES.test(char) && previous.font.hasGlyphForCodePoint(codePoint)))
          ? previous
          : (this.fontOf(codePoint) ?? this.standard);
      fonts.set(index, font);
      previous = font;
      index += char.length;
    }
    const levels = bidi.getEmbeddingLevels(line, 'auto');
    const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
    const pieces: { font: PDFFont | LoadedSlice; odd: boolean; visual: string[] }[] = [];
    for (const at of bidi.getReorderedIndices(line, levels)) {
      const font = fonts.get(at);
      if (!font) continue; // the second half of a surrogate pair
      const odd = (levels.levels[at] & 1) === 1;
      const char = mirrored.get(at) ?? String.fromCodePoint(line.codePointAt(at)!);
      const last = pieces[pieces.length - 1];
      if (last && last.font === font && last.odd === odd) last.visual.push(char);
      else pieces.push({ font, odd, visual: [char] });
    }
    // fontkit reverses what it lays out right to left, and shapes Arabic in logical order.
    return pieces.map(({ font, visual }) => {
      const text = visual.join('');
      return {
        font,
        text: isSlice(font) && fontkitReverses(text) ? [...visual].reverse().join('') : text,
      };
    });
  }

  widthOfTextAtSize(text: string, size: number): number {
    let width = 0;
    for (const line of this.printable(text).split('\n')) {
      for (const { font, text: piece } of this.pieces(line)) {
        if (!isSlice(font)) width += font.widthOfTextAtSize(piece, size);
        else {
          const { glyphs } = font.font.layout(piece);
          width +=
            (glyphs.reduce((sum, glyph) => sum + glyph.advanceWidth, 0) * size) /
            font.font.unitsPerEm;
        }
      }
    }
    return width;
  }

  /** Draws one line with its baseline at `y`; the text is written when the document is finished. */
  drawLine(page: PDFPage, text: string, x: number, y: number, size: number, color: RGB): void {
    const pieces = this.pieces(this.printable(text).replace(/\n/g, ' '));
    if (pieces.length > 0) this.typesetter.queue({ page, pieces, x, y, size, color });
  }
}

type QueuedLine = {
  page: PDFPage;
  pieces: Piece[];
  x: number;
  y: number;
  size: number;
  color: RGB;
};

/**
 * The type of one document: a regular and a bold face. Lines are queued as they are laid out and
 * written by `finish`, once the font files they need are embedded (subset to the glyphs drawn).
 */
export class Typesetter {
  private readonly lines: QueuedLine[] = [];
  readonly regular: Face;
  readonly bold: Face;

  private readonly doc: PDFDocument;

  private constructor(doc: PDFDocument, regular: PDFFont, bold: PDFFont) {
    this.doc = doc;
    this.regular = new Face(this, regular, 400);
    this.bold = new Face(this, bold, 700);
  }

  static async create(doc: PDFDocument): Promise<Typesetter> {
    doc.registerFontkit(cachingFontkit);
    return new Typesetter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
    );
  }

  queue(line: QueuedLine): void {
    this.lines.push(line);
  }

  /** Embeds the font files the queued lines use and writes the lines on their pages. */
  async finish(): Promise<void> {
    const embedded = new Map<LoadedSlice, PDFFont>();
    for (const { pieces } of this.lines) {
      for (const { font } of pieces) {
        if (isSlice(font) && !embedded.has(font))
          embedded.set(font, await this.doc.embedFont(font.bytes, { subset: true }));
      }
    }
    const keys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();
    const keyOf = (page: PDFPage, font: PDFFont): PDFName => {
      let pageKeys = keys.get(page);
      if (!pageKeys) keys.set(page, (pageKeys = new Map()));
      let key = pageKeys.get(font);
      if (!key) pageKeys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
      return key;
    };
    for (const { page, pieces, x, y, size, color } of this.lines.splice(0)) {
      page.pushOperators(pushGraphicsState(), beginText(), setFillingColor(color));
      pieces.forEach(({ font, text }, index) => {
        const pdfFont = isSlice(font) ? embedded.get(font)! : font;
        page.pushOperators(setFontAndSize(keyOf(page, pdfFont), size));
        if (index === 0) page.pushOperators(setTextMatrix(1, 0, 0, 1, x, y));
        page.pushOperators(showText(pdfFont.encodeText(text)));
      });
      page.pushOperators(endText(), popGraphicsState());
    }
  }
}
