import { rgb, type PDFDocument, type PDFPage, type RGB } from 'pdf-lib';
import type { Face } from './fonts.ts';

/**
 * A small flowing-layout toolkit over pdf-lib: text in any script (see fonts.ts), word wrapping,
 * a cursor that starts a new page when the next block does not fit, a table whose header repeats
 * on every page (pdfTable.ts), and page footers. Coordinates are PDF points (1/72 inch), origin bottom left.
 */

/** US Letter, 8.5 × 11 inches. */
export const LETTER: [number, number] = [612, 792];
/** Left and right margin. */
export const MARGIN = 48;
const TOP_MARGIN = 42;
/** The footer's baseline; content stops above its rule. */
const FOOTER_BASELINE = 30;
const CONTENT_BOTTOM = FOOTER_BASELINE + 24;

export const colors = {
  text: rgb(0.12, 0.14, 0.17),
  muted: rgb(0.4, 0.43, 0.48),
  accent: rgb(0.1, 0.33, 0.6),
  rule: rgb(0.78, 0.8, 0.84),
  shade: rgb(0.95, 0.96, 0.975),
  stripe: rgb(0.975, 0.98, 0.985),
};

export type Fonts = { regular: Face; bold: Face };
export type TextStyle = { font: Face; size: number; color?: RGB };

export const lineHeightOf = (size: number): number => size * 1.35;

/** Splits a word wider than the line into pieces that fit. */
function breakWord(font: Face, size: number, word: string, maxWidth: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const char of word) {
    if (piece && font.widthOfTextAtSize(piece + char, size) > maxWidth) {
      pieces.push(piece);
      piece = '';
    }
    piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Printable text wrapped at word boundaries to lines no wider than `maxWidth`; line breaks are kept. */
export function wrapText(style: TextStyle, text: string, maxWidth: number): string[] {
  const { font, size } = style;
  const lines: string[] = [];
  for (const paragraph of font.printable(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      const pieces = breakWord(font, size, word, maxWidth);
      line = pieces.pop() ?? '';
      lines.push(...pieces);
    }
    lines.push(line);
  }
  return lines;
}

/** One line of a block: its text and style. */
export type BlockLine = { text: string; style: TextStyle };

/** Wraps styled paragraphs into lines for a column `width` wide. */
export function wrapBlock(
  paragraphs: { text: string; style: TextStyle }[],
  width: number,
): BlockLine[] {
  return paragraphs.flatMap(({ text, style }) =>
    wrapText(style, text, width).map((line) => ({ text: line, style })),
  );
}

/** At most `max` lines, the last one ending in an ellipsis when some were cut. */
export function clampBlock(lines: BlockLine[], max: number, maxWidth: number): BlockLine[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, Math.max(max, 1));
  const { text, style } = kept[kept.length - 1];
  let last = text;
  while (last && style.font.widthOfTextAtSize(`${last}…`, style.size) > maxWidth)
    last = [...last].slice(0, -1).join('');
  kept[kept.length - 1] = { text: `${last}…`, style };
  return kept;
}

export const blockHeight = (lines: BlockLine[]): number =>
  lines.reduce((height, line) => height + lineHeightOf(line.style.size), 0);

/** Draws one line of text with its baseline at `y` (measure it with the style's font first). */
export function drawTextLine(
  page: PDFPage,
  text: string,
  x: number,
  y: number,
  style: TextStyle,
): void {
  style.font.drawLine(page, text, x, y, style.size, style.color ?? colors.text);
}

/** Draws the lines top-down from `top`, already wrapped. */
export function drawBlock(page: PDFPage, lines: BlockLine[], x: number, top: number): void {
  let y = top;
  for (const { text, style } of lines) {
    if (text) drawTextLine(page, text, x, y - style.size, style);
    y -= lineHeightOf(style.size);
  }
}

/**
 * The writing position over a growing document. `y` is the top of the next thing to draw; a block
 * asks for its height with `ensure` first, which starts a new page (and calls `onNewPage`, which
 * may draw a running header) when it does not fit.
 */
export class Flow {
  page: PDFPage;
  y = 0;
  readonly left = MARGIN;
  readonly right = LETTER[0] - MARGIN;
  readonly width = LETTER[0] - 2 * MARGIN;
  readonly bottom = CONTENT_BOTTOM;
  onNewPage: (flow: Flow) => void = () => {};

  readonly doc: PDFDocument;
  readonly fonts: Fonts;

  constructor(doc: PDFDocument, fonts: Fonts) {
    this.doc = doc;
    this.fonts = fonts;
    this.page = this.addPage();
  }

  /** The height a block may have at most: a full page below the running header. */
  get pageCapacity(): number {
    return LETTER[1] - TOP_MARGIN - this.bottom - 40;
  }

  private addPage(): PDFPage {
    this.page = this.doc.addPage(LETTER);
    this.y = LETTER[1] - TOP_MARGIN;
    return this.page;
  }

  newPage(): void {
    this.addPage();
    this.onNewPage(this);
  }

  /** Starts a new page when less than `height` remains; answers whether it did. */
  ensure(height: number): boolean {
    if (this.y - height >= this.bottom) return false;
    this.newPage();
    return true;
  }

  gap(points: number): void {
    this.y -= points;
  }

  rule(color: RGB = colors.rule, thickness = 0.75): void {
    this.page.drawLine({
      start: { x: this.left, y: this.y },
      end: { x: this.right, y: this.y },
      thickness,
      color,
    });
  }

  /** Text that may run over several pages, wrapped to the content width less `indent`. */
  paragraph(text: string, style: TextStyle, indent = 0): void {
    for (const line of wrapText(style, text, this.width - indent)) {
      const height = lineHeightOf(style.size);
      this.ensure(height);
      if (line) drawTextLine(this.page, line, this.left + indent, this.y - style.size, style);
      this.y -= height;
    }
  }

  /**
   * A marker in the left `indent` points (a label, "1.") and text wrapped beside it; the text may
   * run over several pages, the marker stands on its first line.
   */
  hanging(
    marker: string,
    markerStyle: TextStyle,
    text: string,
    style: TextStyle,
    indent: number,
  ): void {
    const height = lineHeightOf(Math.max(style.size, markerStyle.size));
    const lines = wrapText(style, text, this.width - indent);
    const markerLines = wrapText(markerStyle, marker, indent - 6);
    lines.forEach((line, index) => {
      this.ensure(height);
      const top = this.y;
      if (index === 0)
        drawBlock(
          this.page,
          markerLines.slice(0, 1).map((text) => ({ text, style: markerStyle })),
          this.left,
          top,
        );
      drawBlock(this.page, [{ text: line, style }], this.left + indent, top);
      this.y -= height;
    });
  }

  /** A section title with a rule under it, kept on the page of what follows (`keepWith` points). */
  heading(title: string, keepWith = 40): void {
    const style = { font: this.fonts.bold, size: 9.5, color: colors.accent };
    this.ensure(lineHeightOf(style.size) + 6 + keepWith);
    drawBlock(this.page, [{ text: title.toUpperCase(), style }], this.left, this.y);
    this.y -= lineHeightOf(style.size) + 1;
    this.rule(colors.accent, 1);
    this.gap(5);
  }
}

/** The label on the left and "Page 2 of 3" on the right of every page's foot, drawn once all pages exist. */
export function drawFooters(doc: PDFDocument, fonts: Fonts, label: string): void {
  const style: TextStyle = { font: fonts.regular, size: 7.5, color: colors.muted };
  const pages = doc.getPages();
  pages.forEach((page, index) => {
    const y = FOOTER_BASELINE;
    page.drawLine({
      start: { x: MARGIN, y: y + 11 },
      end: { x: LETTER[0] - MARGIN, y: y + 11 },
      thickness: 0.5,
      color: colors.rule,
    });
    const [text = ''] = wrapText(style, label, LETTER[0] - 2 * MARGIN - 80);
    drawTextLine(page, text, MARGIN, y, style);
    const pageLabel = `Page ${index + 1} of ${pages.length}`;
    const width = style.font.widthOfTextAtSize(pageLabel, style.size);
    drawTextLine(page, pageLabel, LETTER[0] - MARGIN - width, y, style);
  });
}
