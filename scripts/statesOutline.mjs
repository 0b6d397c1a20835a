// Writes client/src/components/map/states.topo.json, the base map's US states outline: us-atlas's
// states-10m (11,781 points, 33 KB brotli in the map's chunk) with each shared border simplified
// (Douglas-Peucker, about 5 km, endpoints kept so neighbouring states still meet) and coarser
// quantization, and only the `states` object. `node scripts/statesOutline.mjs` after updating us-atlas.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../node_modules/us-atlas/states-10m.json', import.meta.url));
const target = fileURLToPath(
  new URL('../client/src/components/map/states.topo.json', import.meta.url),
);
const topology = JSON.parse(readFileSync(source, 'utf8'));
const [scaleX, scaleY] = topology.transform.scale;
const [translateX, translateY] = topology.transform.translate;
/** Degrees: about 5 km, below what the map shows at the zoom levels of the whole country or a region. */
const TOLERANCE = 0.05;
/** One grid step of the new quantization, in degrees (about 1 km). */
const STEP = 0.01;

const absolute = (arc) => {
  let x = 0;
  let y = 0;
  return arc.map(([dx, dy]) => [translateX + (x += dx) * scaleX, translateY + (y += dy) * scaleY]);
};

function simplify(points) {
  if (points.length < 3) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop();
    const [ax, ay] = points[first];
    const [bx, by] = points[last];
    const length = Math.hypot(bx - ax, by - ay);
    let farthest = -1;
    let distance = TOLERANCE;
    for (let index = first + 1; index < last; index += 1) {
      const [px, py] = points[index];
      const away =
        length === 0
          ? Math.hypot(px - ax, py - ay)
          : Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length;
      if (away > distance) {
        distance = away;
        farthest = index;
      }
    }
    if (farthest > 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  const kept = points.filter((_point, index) => keep[index]);
  // A closed ring (an island) keeps at least four points, else it would vanish.
  return kept.length >= 4 || points.length < 4
    ? kept
    : [
        points[0],
        points[Math.floor(points.length / 3)],
        points[Math.floor((2 * points.length) / 3)],
        points.at(-1),
      ];
}

const arcs = topology.arcs.map((arc) => {
  let x = 0;
  let y = 0;
  return simplify(absolute(arc)).map(([lon, lat]) => {
    const qx = Math.round((lon - translateX) / STEP);
    const qy = Math.round((lat - translateY) / STEP);
    const delta = [qx - x, qy - y];
    x = qx;
    y = qy;
    return delta;
  });
});

const outline = {
  type: 'Topology',
  transform: { scale: [STEP, STEP], translate: [translateX, translateY] },
  objects: { states: topology.objects.states },
  arcs,
};
writeFileSync(target, `${JSON.stringify(outline)}\n`);
const points = (list) => list.reduce((total, arc) => total + arc.length, 0);
console.log(
  `states outline: ${points(topology.arcs)} points to ${points(arcs)}, ${readFileSync(target).length} bytes`,
);
