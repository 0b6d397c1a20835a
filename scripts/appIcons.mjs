// Draws the app's icons (the favicon's truck on orange) as PNG files into client/public/icons:
// 192 and 512 pixels, each as a plain icon (rounded square) and as a maskable one (full bleed, the
// truck inside the safe zone, the central circle of 80 % that every launcher's mask keeps).
// `node scripts/appIcons.mjs` after changing the drawing; the PNGs are committed, so the build needs
// no image library. A few lines over node:zlib: four squares, two circles and a polygon, 4x4 samples a pixel.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

const outDir = fileURLToPath(new URL('../client/public/icons', import.meta.url));
const ORANGE = [0xf9, 0x73, 0x16];
const INK = [0x11, 0x18, 0x27];

/** The favicon's drawing in its 32-unit box: is (x, y) on the truck? */
function onTruck(x, y) {
  if (x >= 7 && x <= 19 && y >= 11 && y <= 20) return true; // the box
  // The cab: (19,14) (23,14) (26,17) (26,20) (19,20).
  if (x >= 19 && x <= 26 && y >= 14 && y <= 20 && (x <= 23 || y - 14 >= x - 23)) return true;
  return (x - 11) ** 2 + (y - 22) ** 2 <= 4 || (x - 22) ** 2 + (y - 22) ** 2 <= 4; // the wheels
}

/** Inside the rounded square (radius 4 of 32)? */
function inRoundedSquare(x, y) {
  const cx = Math.min(Math.max(x, 4), 28);
  const cy = Math.min(Math.max(y, 4), 28);
  return x >= 0 && x <= 32 && y >= 0 && y <= 32 && (x - cx) ** 2 + (y - cy) ** 2 <= 16;
}

/** RGBA of a pixel: `maskable` fills the square and draws the truck at 65 % around the centre. */
function pixel(size, px, py, maskable) {
  const SAMPLES = 4;
  let background = 0;
  let truck = 0;
  for (let sy = 0; sy < SAMPLES; sy += 1) {
    for (let sx = 0; sx < SAMPLES; sx += 1) {
      const x = ((px + (sx + 0.5) / SAMPLES) / size) * 32;
      const y = ((py + (sy + 0.5) / SAMPLES) / size) * 32;
      const inside = maskable || inRoundedSquare(x, y);
      if (!inside) continue;
      background += 1;
      // The drawing's centre is (16.5, 16.5); the maskable icon shrinks it into the safe zone.
      const scale = maskable ? 0.65 : 1;
      if (onTruck(16.5 + (x - 16) / scale, 16.5 + (y - 16) / scale)) truck += 1;
    }
  }
  const total = SAMPLES * SAMPLES;
  if (background === 0) return [0, 0, 0, 0];
  const share = truck / background;
  const color = ORANGE.map((channel, index) =>
    Math.round(channel * (1 - share) + INK[index] * share),
  );
  return [...color, Math.round((background / total) * 255)];
}

function png(size, maskable) {
  const rows = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y += 1) {
    const start = y * (size * 4 + 1);
    rows[start] = 0; // no filter
    for (let x = 0; x < size; x += 1)
      Buffer.from(pixel(size, x, y, maskable)).copy(rows, start + 1 + x * 4);
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(outDir, { recursive: true });
for (const size of [192, 512]) {
  writeFileSync(join(outDir, `icon-${size}.png`), png(size, false));
  writeFileSync(join(outDir, `icon-maskable-${size}.png`), png(size, true));
}
console.log(`icons: wrote 4 PNG files to ${outDir}`);
