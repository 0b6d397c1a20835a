/**
 * Samsara (https://developers.samsara.com): the secret is an API token sent as
 * `Authorization: Bearer <token>`. `GET /fleet/vehicles/locations` answers the last known location
 * of every vehicle, `{data: [{id, name, location: {latitude, longitude, heading, speed, time}}],
 * pagination: {endCursor, hasNextPage}}`, a page at a time: the next page is asked for with
 * `after=<endCursor>`. Speed is the GPS speed in miles per hour, heading in degrees.
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

export const SAMSARA_DEFAULT_BASE_URL = 'https://api.samsara.com';
/** A guard against a provider that keeps answering hasNextPage. */
const MAX_PAGES = 100;

type SamsaraPage = {
  data?: Array<{ id?: unknown; name?: unknown; location?: Record<string, unknown> | null }>;
  pagination?: { endCursor?: unknown; hasNextPage?: unknown };
};

const truckOf = (vehicle: NonNullable<SamsaraPage['data']>[number]): EldTruck | null => {
  const location = vehicle.location;
  if (!location || (typeof vehicle.id !== 'string' && typeof vehicle.id !== 'number')) return null;
  const latitude = numberOrNull(location.latitude);
  const longitude = numberOrNull(location.longitude);
  const updatedAt = isoOrNull(location.time);
  if (!validCoordinates(latitude, longitude) || !updatedAt) return null;
  return {
    id: String(vehicle.id),
    name:
      typeof vehicle.name === 'string' && vehicle.name.trim()
        ? vehicle.name.trim()
        : String(vehicle.id),
    latitude: latitude!,
    longitude: longitude!,
    speed: numberOrNull(location.speed),
    heading: numberOrNull(location.heading),
    updatedAt,
  };
};

export function createSamsaraProvider(
  options: { baseUrl?: string; http?: HttpOptions } = {},
): EldProvider {
  const baseUrl = options.baseUrl ?? SAMSARA_DEFAULT_BASE_URL;
  const name = 'Samsara';
  const headersOf = (credentials: EldCredentials) => ({
    authorization: `Bearer ${credentials.clientSecret}`,
  });

  const page = async (credentials: EldCredentials, after: string | null): Promise<SamsaraPage> => {
    const url = new URL('/fleet/vehicles/locations', baseUrl);
    if (after) url.searchParams.set('after', after);
    return (await getJson(name, url, headersOf(credentials), options.http)) as SamsaraPage;
  };

  return {
    id: 'samsara',
    name,
    description:
      'Samsara vehicle gateways: live truck locations from the Samsara fleet API, with an API token created in the Samsara dashboard (Settings, API tokens; read access to vehicles).',
    credentialLabels: { clientId: null, clientSecret: 'API token' },

    async verify(credentials: EldCredentials, _context: FleetContext): Promise<VerifyResult> {
      try {
        await page(credentials, null);
        return { ok: true };
      } catch (error) {
        if (error instanceof CredentialsRefusedError) return { ok: false, refused: error.reason };
        throw error;
      }
    },

    async trucks(credentials: EldCredentials, _context: FleetContext): Promise<EldTruck[]> {
      const trucks: EldTruck[] = [];
      const seen = new Set<string>();
      let after: string | null = null;
      for (let pages = 0; pages < MAX_PAGES; pages++) {
        const answer = await page(credentials, after);
        for (const vehicle of answer.data ?? []) {
          const truck = truckOf(vehicle);
          if (truck) trucks.push(truck);
        }
        const cursor = answer.pagination?.endCursor;
        if (
          answer.pagination?.hasNextPage !== true ||
          typeof cursor !== 'string' ||
          cursor === '' ||
          seen.has(cursor)
        )
          break;
        seen.add(cursor);
        after = cursor;
      }
      return trucks;
    },
  };
}
