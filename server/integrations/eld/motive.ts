/**
 * Motive, formerly KeepTruckin (https://developer.gomotive.com): the secret is an API key sent as
 * `X-Api-Key`. `GET /v1/vehicle_locations` answers every vehicle with its current location,
 * `{vehicles: [{vehicle: {id, number, current_location: {lat, lon, bearing, located_at, speed?}}}],
 * pagination: {per_page, page_no, total}}`, a page at a time (`per_page` up to 100, `page_no` from 1).
 * The truck's name is its `number`, as the fleet names it in the Motive dashboard.
 */
import { getJson, isoOrNull, numberOrNull, validCoordinates, type HttpOptions } from './http.ts';
import type {
  EldCredentials,
  EldProvider,
  EldTruck,
  FleetContext,
  VerifyResult,
} from './provider.ts';
import { CredentialsRefusedError } from './provider.ts';

export const MOTIVE_DEFAULT_BASE_URL = 'https://api.gomotive.com';
const PER_PAGE = 100;
const MAX_PAGES = 100;

type MotiveVehicle = {
  id?: unknown;
  number?: unknown;
  current_location?: Record<string, unknown> | null;
};
type MotivePage = {
  vehicles?: Array<{ vehicle?: MotiveVehicle | null }>;
  pagination?: { per_page?: unknown; page_no?: unknown; total?: unknown };
};

const truckOf = (vehicle: MotiveVehicle): EldTruck | null => {
  const location = vehicle.current_location;
  if (!location || (typeof vehicle.id !== 'string' && typeof vehicle.id !== 'number')) return null;
  const latitude = numberOrNull(location.lat);
  const longitude = numberOrNull(location.lon);
  const updatedAt = isoOrNull(location.located_at);
  if (!validCoordinates(latitude, longitude) || !updatedAt) return null;
  const number =
    typeof vehicle.number === 'string' || typeof vehicle.number === 'number'
      ? String(vehicle.number).trim()
      : '';
  return {
    id: String(vehicle.id),
    name: number || String(vehicle.id),
    latitude: latitude!,
    longitude: longitude!,
    speed: numberOrNull(location.speed),
    heading: numberOrNull(location.bearing),
    updatedAt,
  };
};

export function createMotiveProvider(
  options: { baseUrl?: string; http?: HttpOptions } = {},
): EldProvider {
  const baseUrl = options.baseUrl ?? MOTIVE_DEFAULT_BASE_URL;
  const name = 'Motive';

  const page = async (
    credentials: EldCredentials,
    pageNo: number,
    perPage: number,
  ): Promise<MotivePage> => {
    const url = new URL('/v1/vehicle_locations', baseUrl);
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page_no', String(pageNo));
    return (await getJson(
      name,
      url,
      { 'x-api-key': credentials.clientSecret },
      options.http,
    )) as MotivePage;
  };

  return {
    id: 'motive',
    name,
    description:
      'Motive (KeepTruckin) ELDs: live truck locations from the Motive fleet API, with an API key created in the Motive dashboard (Admin, API keys).',
    credentialLabels: { clientId: null, clientSecret: 'API key' },

    async verify(credentials: EldCredentials, _context: FleetContext): Promise<VerifyResult> {
      try {
        await page(credentials, 1, 1);
        return { ok: true };
      } catch (error) {
        if (error instanceof CredentialsRefusedError) return { ok: false, refused: error.reason };
        throw error;
      }
    },

    async trucks(credentials: EldCredentials, _context: FleetContext): Promise<EldTruck[]> {
      const trucks: EldTruck[] = [];
      for (let pageNo = 1; pageNo <= MAX_PAGES; pageNo++) {
        const answer = await page(credentials, pageNo, PER_PAGE);
        const vehicles = answer.vehicles ?? [];
        for (const entry of vehicles) {
          const truck = entry.vehicle ? truckOf(entry.vehicle) : null;
          if (truck) trucks.push(truck);
        }
        // The provider may cap per_page below what was asked: trust the page size it reports.
        const perPage = numberOrNull(answer.pagination?.per_page) ?? PER_PAGE;
        const total = numberOrNull(answer.pagination?.total) ?? 0;
        if (vehicles.length === 0 || pageNo * perPage >= total) break;
      }
      return trucks;
    },
  };
}
