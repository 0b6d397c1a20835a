/** Tables for the flowing layout of pdfLayout.ts. */
import {
  blockHeight,
  clampBlock,
  colors,
  drawBlock,
  type Flow,
  lineHeightOf,
  type TextStyle,
  wrapBlock,
} from './pdfLayout.ts';

export type Column = { header: string; width: number };
/** A cell: lines of text, each wrapped to the column. */
export type Cell = { text: string; bold?: boolean; muted?: boolean }[];

const CELL_PADDING = 4;

/** A table whose rows never split across pages; the header row is repeated on each new page. */
export function drawTable(flow: Flow, columns: Column[], rows: Cell[][]): void {
  const size = 8.5;
  const regular: TextStyle = { font: flow.fonts.regular, size };
  const headerStyle: TextStyle = { font: flow.fonts.bold, size, color: colors.muted };
  const headerHeight = lineHeightOf(size) + 2 * CELL_PADDING;
  const maxLines = Math.floor(
    (flow.pageCapacity - headerHeight - 2 * CELL_PADDING) / lineHeightOf(size),
  );

  const drawHeader = () => {
    flow.page.drawRectangle({
      x: flow.left,
      y: flow.y - headerHeight,
      width: flow.width,
      height: headerHeight,
      color: colors.shade,
    });
    let x = flow.left;
    for (const column of columns) {
      drawBlock(
        flow.page,
        [{ text: column.header, style: headerStyle }],
        x + CELL_PADDING,
        flow.y - CELL_PADDING,
      );
      x += column.width;
    }
    flow.y -= headerHeight;
  };

  flow.ensure(headerHeight + 2 * lineHeightOf(size) + 2 * CELL_PADDING);
  drawHeader();
  rows.forEach((row, index) => {
    const cells = columns.map((column, columnIndex) => {
      const innerWidth = column.width - 2 * CELL_PADDING;
      const lines = wrapBlock(
        (row[columnIndex] ?? []).map((part) => ({
          text: part.text,
          style: part.bold
            ? { ...regular, font: flow.fonts.bold }
            : part.muted
              ? { ...regular, color: colors.muted }
              : regular,
        })),
        innerWidth,
      );
      return clampBlock(lines, maxLines, innerWidth);
    });
    const height = Math.max(...cells.map(blockHeight)) + 2 * CELL_PADDING;
    if (flow.ensure(height)) drawHeader();
    if (index % 2 === 1)
      flow.page.drawRectangle({
        x: flow.left,
        y: flow.y - height,
        width: flow.width,
        height,
        color: colors.stripe,
      });
    let x = flow.left;
    cells.forEach((lines, columnIndex) => {
      drawBlock(flow.page, lines, x + CELL_PADDING, flow.y - CELL_PADDING);
      x += columns[columnIndex].width;
    });
    flow.y -= height;
    flow.rule(colors.rule, 0.5);
  });
}
