/**
 * The built-in ELD simulator: a fleet of trucks that drive between US freight hubs, so that the
 * demo and the tests have live trucks without any network.
 *
 * Stateless and restart-proof: a truck's position is a function of the organization (which seeds
 * its fleet) and of the time. Each truck shuttles between two cities 200 to 800 miles apart along
 * the great circle, bent into a gentle curve (its middle lies 2 to 7 % of the distance off the
 * straight course), at a steady 45 to 65 mph, and rests 20 to 60 minutes at each end. The path is
 * sampled into short straight pieces once per organization; a position walks that polyline.
 */
import { createHash } from 'node:crypto';
import { distanceMeters, METERS_PER_MILE, type LatLng } from '../../../domain/tours/geo.ts';
import {
  CredentialsRefusedError,
  type EldCredentials,
  type EldProvider,
  type EldTruck,
  type FleetContext,
  type VerifyResult,
} from './provider.ts';
import { usCities, type City } from './usCities.ts';

export const SIMULATOR_FLEET_SIZE = 8;
/** The secret the simulator refuses, so that the refusal can be tried too. */
export const SIMULATOR_REFUSED_SECRET = 'invalid';
const SAMPLES = 120;
const EARTH_RADIUS_METERS = 6_371_008.8;
const MIN_MILES = 200;
const MAX_MILES = 800;

const radians = (degrees: number) => (degrees * Math.PI) / 180;
const degrees = (value: number) => (value * 180) / Math.PI;
const normalizeBearing = (value: number) => ((value % 360) + 360) % 360;

/** Initial bearing from `a` to `b`, degrees clockwise from north. */
export const bearingDegrees = (a: LatLng, b: LatLng): number => {
  const phi1 = radians(a.latitude);
  const phi2 = radians(b.latitude);
  const deltaLambda = radians(b.longitude - a.longitude);
  const y = Math.sin(deltaLambda) * Math.cos(phi2);
  const x =
    Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(deltaLambda);
  return normalizeBearing(degrees(Math.atan2(y, x)));
};

/** The point `meters` away from `from` on the initial bearing. */
const destination = (from: LatLng, bearing: number, meters: number): LatLng => {
  const delta = meters / EARTH_RADIUS_METERS;
  const theta = radians(bearing);
  const phi1 = radians(from.latitude);
  const lambda1 = radians(from.longitude);
  const phi2 = Math.asin(
    Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta),
  );
  const lambda2 =
    lambda1 +
    Math.atan2(
      Math.sin(theta) * Math.sin(delta) * Math.cos(phi1),
      Math.cos(delta) - Math.sin(phi1) * Math.sin(phi2),
    );
  return { latitude: degrees(phi2), longitude: degrees(lambda2) };
};

/** The point at `fraction` of the great circle from `a` to `b`. */
const alongGreatCircle = (a: LatLng, b: LatLng, fraction: number): LatLng => {
  const delta = distanceMeters(a, b) / EARTH_RADIUS_METERS;
  if (delta === 0) return a;
  const phi1 = radians(a.latitude);
  const lambda1 = radians(a.longitude);
  const phi2 = radians(b.latitude);
  const lambda2 = radians(b.longitude);
  const wa = Math.sin((1 - fraction) * delta) / Math.sin(delta);
  const wb = Math.sin(fraction * delta) / Math.sin(delta);
  const x = wa * Math.cos(phi1) * Math.cos(lambda1) + wb * Math.cos(phi2) * Math.cos(lambda2);
  const y = wa * Math.cos(phi1) * Math.sin(lambda1) + wb * Math.cos(phi2) * Math.sin(lambda2);
  const z = wa * Math.sin(phi1) + wb * Math.sin(phi2);
  return {
    latitude: degrees(Math.atan2(z, Math.hypot(x, y))),
    longitude: degrees(Math.atan2(y, x)),
  };
};

/** mulberry32: a small, fast, well-spread 32-bit generator; enough for picking routes. */
const generator = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
  return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
};

type SimulatedTruck = {
  id: string;
  name: string;
  from: City;
  to: City;
  points: LatLng[];
  cumulative: number[];
  lengthMeters: number;
  speedMph: number;
  legSeconds: number;
  restSeconds: number;
  cycleSeconds: number;
  offsetSeconds: number;
};

const curvedPath = (from: City, to: City, bend: number): LatLng[] => {
  const straight = distanceMeters(from, to);
  const points: LatLng[] = [];
  for (let index = 0; index <= SAMPLES; index++) {
    const fraction = index / SAMPLES;
    const base = alongGreatCircle(from, to, fraction);
    const offset = bend * straight * Math.sin(Math.PI * fraction);
    points.push(
      index === 0 || index === SAMPLES
        ? base
        : destination(base, bearingDegrees(base, to) + 90, offset),
    );
  }
  return points;
};

function buildTruck(random: () => number, index: number, tag: string): SimulatedTruck {
  let from = usCities[0]!;
  let to = usCities[1]!;
  for (let attempt = 0; attempt < 200; attempt++) {
    const a = usCities[Math.floor(random() * usCities.length)]!;
    const b = usCities[Math.floor(random() * usCities.length)]!;
    const miles = distanceMeters(a, b) / METERS_PER_MILE;
    if (a !== b && miles >= MIN_MILES && miles <= MAX_MILES) {
      from = a;
      to = b;
      break;
    }
  }
  const bend = (random() < 0.5 ? -1 : 1) * (0.02 + random() * 0.05);
  const points = curvedPath(from, to, bend);
  const cumulative = [0];
  for (let i = 1; i < points.length; i++)
    cumulative.push(cumulative[i - 1]! + distanceMeters(points[i - 1]!, points[i]!));
  const lengthMeters = cumulative[cumulative.length - 1]!;
  const speedMph = Math.round((45 + random() * 20) * 10) / 10;
  const legSeconds = (lengthMeters / METERS_PER_MILE / speedMph) * 3600;
  const restSeconds = Math.round(20 * 60 + random() * 40 * 60);
  const cycleSeconds = 2 * (legSeconds + restSeconds);
  return {
    id: `SIM-${tag}-${index + 1}`,
    name: `T-${11 + index}`,
    from,
    to,
    points,
    cumulative,
    lengthMeters,
    speedMph,
    legSeconds,
    restSeconds,
    cycleSeconds,
    offsetSeconds: random() * cycleSeconds,
  };
}

const fleets = new Map<string, SimulatedTruck[]>();

/** The organization's fleet: the same organization always gets the same trucks on the same routes. */
function fleetOf(organizationId: string): SimulatedTruck[] {
  const cached = fleets.get(organizationId);
  if (cached) return cached;
  const digest = createHash('sha256').update(`eld-simulator:${organizationId}`).digest();
  const random = generator(digest.readUInt32BE(0));
  const tag = digest.subarray(4, 7).toString('hex').toUpperCase();
  const fleet = Array.from({ length: SIMULATOR_FLEET_SIZE }, (_, index) =>
    buildTruck(random, index, tag),
  );
  if (fleets.size >= 1000) fleets.delete(fleets.keys().next().value!);
  fleets.set(organizationId, fleet);
  return fleet;
}

/** The point `meters` along the polyline, and the heading of the piece it lies on. */
function pointAlong(truck: SimulatedTruck, meters: number): { point: LatLng; heading: number } {
  const { points, cumulative } = truck;
  const target = Math.min(Math.max(meters, 0), truck.lengthMeters);
  let low = 0;
  let high = cumulative.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! <= target) low = middle;
    else high = middle;
  }
  const a = points[low]!;
  const b = points[high]!;
  const piece = cumulative[high]! - cumulative[low]!;
  const fraction = piece > 0 ? (target - cumulative[low]!) / piece : 0;
  return {
    point: {
      latitude: a.latitude + (b.latitude - a.latitude) * fraction,
      longitude: a.longitude + (b.longitude - a.longitude) * fraction,
    },
    heading: bearingDegrees(a, b),
  };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Where the truck is at `seconds` (Unix time): out, resting at the far end, back, resting at home. */
export function simulatedPosition(truck: SimulatedTruck, seconds: number): EldTruck {
  const { legSeconds, restSeconds, cycleSeconds, lengthMeters } = truck;
  const phase = (((seconds + truck.offsetSeconds) % cycleSeconds) + cycleSeconds) % cycleSeconds;
  const metersPerSecond = (truck.speedMph * METERS_PER_MILE) / 3600;
  let meters: number;
  let moving = true;
  let back = false;
  if (phase < legSeconds) meters = phase * metersPerSecond;
  else if (phase < legSeconds + restSeconds) {
    meters = lengthMeters;
    moving = false;
  } else if (phase < 2 * legSeconds + restSeconds) {
    meters = lengthMeters - (phase - legSeconds - restSeconds) * metersPerSecond;
    back = true;
  } else {
    meters = 0;
    moving = false;
    back = true;
  }
  const { point, heading } = pointAlong(truck, meters);
  // Resting at an end, the truck faces the way it came in.
  const facing = back ? normalizeBearing(heading + 180) : heading;
  return {
    id: truck.id,
    name: truck.name,
    latitude: round(point.latitude, 6),
    longitude: round(point.longitude, 6),
    speed: moving ? truck.speedMph : 0,
    heading: round(facing, 1),
    updatedAt: new Date(seconds * 1000).toISOString(),
  };
}

/** The simulated fleet of an organization at a moment, with the cities each truck runs between. */
export function simulatedFleet(organizationId: string, now: Date = new Date()) {
  const seconds = Math.floor(now.getTime() / 1000);
  return fleetOf(organizationId).map((truck) => ({
    ...simulatedPosition(truck, seconds),
    route: { from: truck.from, to: truck.to },
  }));
}

export function createSimulatorProvider(): EldProvider {
  const check = (credentials: EldCredentials): VerifyResult => {
    if (!credentials.clientId?.trim() || !credentials.clientSecret.trim())
      return { ok: false, refused: 'The simulator needs a client id and a client secret' };
    if (credentials.clientSecret.trim() === SIMULATOR_REFUSED_SECRET) {
      return {
        ok: false,
        refused: `The simulator refused the client secret "${SIMULATOR_REFUSED_SECRET}" (any other value is accepted)`,
      };
    }
    return { ok: true };
  };
  return {
    id: 'simulator',
    name: 'ELD Simulator',
    description:
      'A built-in demo fleet: eight trucks driving between US freight hubs, live, with no account and no network. Any client id and secret are accepted.',
    credentialLabels: { clientId: 'Client id', clientSecret: 'Client secret' },
    async verify(credentials: EldCredentials, _context: FleetContext) {
      return check(credentials);
    },
    async trucks(credentials: EldCredentials, context: FleetContext): Promise<EldTruck[]> {
      const verdict = check(credentials);
      if (!verdict.ok) throw new CredentialsRefusedError('ELD Simulator', verdict.refused);
      return simulatedFleet(context.organizationId, context.now).map(
        ({ route: _route, ...truck }) => truck,
      );
    },
  };
}
