/**
 * The real option for place search: a Photon server (komoot's OpenStreetMap geocoder) named by
 * GEOCODER_URL. Any failure of it is logged and answered from the embedded gazetteer, so place
 * search never goes down with it. Without GEOCODER_URL the gazetteer answers alone.
 */
import { gazetteer, type Place, type PlaceSearch } from './gazetteer.ts';
import { exactState, normalize } from './text.ts';

/** Place search as the routes and the CSV import use it, whichever source answers. */
export type PlaceService = {
  source: 'gazetteer' | 'photon';
  search(query: string, limit?: number): Promise<Place[]>;
  geocode(text: string): Promise<Place | null>;
  reverse(latitude: number, longitude: number): Promise<Place | null>;
};

/** The part of pino this needs, so tests can pass a plain object. */
export type PlaceLogger = { warn(details: Record<string, unknown>, message: string): void };

export type PhotonFeature = {
  type?: string;
  geometry?: { type?: string; coordinates?: number[] };
  properties?: {
    osm_id?: number;
    osm_type?: string;
    osm_key?: string;
    osm_value?: string;
    type?: string;
    name?: string;
    housenumber?: string;
    street?: string;
    postcode?: string;
    city?: string;
    district?: string;
    county?: string;
    state?: string;
    country?: string;
    countrycode?: string;
  };
};

type Options = { logger?: PlaceLogger; fallback?: PlaceSearch; timeoutMs?: number };

export function createPlaceSearch(
  env: { GEOCODER_URL?: string } = process.env,
  options: Options = {},
): PlaceService {
  const fallback = options.fallback ?? gazetteer();
  const url = env.GEOCODER_URL?.trim().replace(/\/+$/, '');
  if (!url) {
    return {
      source: 'gazetteer',
      search: async (query, limit) => fallback.search(query, limit),
      geocode: async (text) => fallback.geocode(text),
      reverse: async (latitude, longitude) => fallback.reverse(latitude, longitude),
    };
  }
  const timeoutMs = options.timeoutMs ?? 3000;

  async function features(
    path: string,
    parameters: Record<string, string>,
  ): Promise<PhotonFeature[]> {
    const response = await fetch(
      `${url}${path}?${new URLSearchParams({ ...parameters, lang: 'en' })}`,
      {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      },
    );
    if (!response.ok) throw new Error(`Photon answered ${response.status}`);
    const body = (await response.json()) as { features?: unknown };
    if (!Array.isArray(body?.features)) throw new Error('Photon answered without a features array');
    return body.features as PhotonFeature[];
  }

  /** Photon's answer, or the gazetteer's when Photon fails; either way the caller gets an answer. */
  async function orFallback<T>(what: string, ask: () => Promise<T>, answer: () => T): Promise<T> {
    try {
      return await ask();
    } catch (error) {
      options.logger?.warn(
        { err: error, geocoder: url, what },
        'the geocoder failed; answering from the embedded gazetteer',
      );
      return answer();
    }
  }

  async function photonSearch(query: string, limit: number): Promise<Place[]> {
    // A few more than asked: places outside the US are dropped.
    const found = await features('/api', {
      q: query.trim(),
      limit: String(Math.min(50, limit + 5)),
    });
    return found
      .map(photonPlace)
      .filter((place): place is Place => place !== null)
      .slice(0, limit);
  }

  return {
    source: 'photon',
    search: (query, limit = 10) =>
      query.trim()
        ? orFallback(
            'search',
            () => photonSearch(query, limit),
            () => fallback.search(query, limit),
          )
        : Promise.resolve([]),
    // Nothing found by Photon may still be a town the gazetteer knows (the CSV import wants an answer).
    geocode: (text) =>
      text.trim()
        ? orFallback(
            'geocode',
            async () => (await photonSearch(text, 1))[0] ?? fallback.geocode(text),
            () => fallback.geocode(text),
          )
        : Promise.resolve(null),
    reverse: (latitude, longitude) =>
      orFallback(
        'reverse',
        async () => {
          const found = await features('/reverse', {
            lat: String(latitude),
            lon: String(longitude),
            limit: '1',
          });
          return (
            found.map(photonPlace).find((place) => place !== null) ??
            fallback.reverse(latitude, longitude)
          );
        },
        () => fallback.reverse(latitude, longitude),
      ),
  };
}

/** One Photon GeoJSON feature as a Place; null outside the 50 states and DC, or without a point. */
export function photonPlace(feature: PhotonFeature): Place | null {
  const properties = feature.properties ?? {};
  const [longitude, latitude] = feature.geometry?.coordinates ?? [];
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (properties.countrycode && properties.countrycode.toUpperCase() !== 'US') return null;
  const state = properties.state ? exactState(normalize(properties.state)) : null;
  if (!state) return null;
  const isTown =
    ['city', 'town', 'village', 'hamlet'].includes(properties.osm_value ?? '') ||
    properties.type === 'city';
  const street = [properties.housenumber, properties.street].filter(Boolean).join(' ');
  const name = properties.name ?? (street || properties.city) ?? '';
  const city = properties.city ?? (isTown ? name : (properties.county ?? name));
  // Photon passes OSM's postcode through: "60606", "60606-1234", sometimes a list.
  const zip = /^\d{5}/.exec(properties.postcode ?? '')?.[0] ?? null;
  const locality = [city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const line =
    properties.name && !isTown
      ? [properties.name, street]
          .filter((part, index, parts) => part && parts.indexOf(part) === index)
          .join(', ')
      : street;
  return {
    id: `osm:${(properties.osm_type ?? '').toUpperCase()}${properties.osm_id ?? `${latitude},${longitude}`}`,
    name: name || city,
    address: [line, locality].filter(Boolean).join(', '),
    latitude,
    longitude,
    city,
    state,
    zip,
    population: null,
  };
}
