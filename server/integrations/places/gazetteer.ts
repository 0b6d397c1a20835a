/**
 * Place search over an embedded US gazetteer: no network, no configuration. The table is built on
 * the first call (see gazetteer.table.ts) and kept in memory.
 */
import { nearest } from './gazetteer.grid.ts';
import { buildTable, type GazetteerTable } from './gazetteer.table.ts';
import { exactState, normalize, statesStartingWith } from './text.ts';

export type Place = {
  id: string;
  /** The town: "Chicago". */
  name: string;
  /** "Chicago, IL", or "60607 — Chicago, IL" for a ZIP code. */
  address: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  zip: string | null;
  population: number | null;
};

export type PlaceSearch = {
  /** Best match first: exact name, then name prefix, then a later word's prefix; more people first within each. */
  search(query: string, limit?: number): Place[];
  /** The one place a free-text "City, ST", ZIP or "street, City, ST 60607" means, or null. */
  geocode(text: string): Place | null;
  /** The town around a point (that of the nearest ZIP centroid), or null farther than about 500 km from any. */
  reverse(latitude: number, longitude: number): Place | null;
};

export const attribution = 'Place data: GeoNames (geonames.org), licensed under CC BY 4.0.';

/** Match quality: lower is better. A state named on its own lists that state's towns last. */
const EXACT = 0,
  PREFIX = 1,
  LATER_WORD = 2,
  STATE_ONLY = 4;

export function createGazetteer(load: () => GazetteerTable = buildTable): PlaceSearch {
  let cached: GazetteerTable | null = null;
  const table = () => (cached ??= load());

  const townPlace = (index: number): Place => {
    const town = table().towns[index];
    return {
      id: town.id,
      name: town.name,
      address: `${town.name}, ${town.state}`,
      latitude: town.latitude,
      longitude: town.longitude,
      city: town.name,
      state: town.state,
      zip: town.zip,
      population: town.population,
    };
  };
  const zipPlace = (row: number): Place => {
    const { zipCodes, zipTowns, zipLatitudes, zipLongitudes, towns } = table();
    const town = towns[zipTowns[row]];
    return {
      id: `zip:${zipCodes[row]}`,
      name: town.name,
      address: `${zipCodes[row]} — ${town.name}, ${town.state}`,
      latitude: zipLatitudes[row],
      longitude: zipLongitudes[row],
      city: town.name,
      state: town.state,
      zip: zipCodes[row],
      population: null,
    };
  };

  /** ZIP codes starting with `digits`, in order. */
  function zipsStartingWith(digits: string, limit: number): Place[] {
    const { zipRowOf } = table();
    const scale = 10 ** (5 - digits.length);
    const first = Number(digits) * scale;
    const found: Place[] = [];
    for (let code = first; code < first + scale && found.length < limit; code++)
      if (zipRowOf[code]) found.push(zipPlace(zipRowOf[code] - 1));
    return found;
  }

  /**
   * Adds the towns whose name (or a later word of it) starts with `text`, each at its best quality.
   * Each list runs most populous first, so it is read only until it has given `limit` towns.
   */
  function collectNames(
    text: string,
    states: readonly string[] | null,
    penalty: number,
    limit: number,
    hits: Hits,
  ) {
    if (!text) return;
    const { towns, exactNames, nameStarts, laterWordStarts } = table();
    const add = (index: number, quality: number) => {
      if (states && !states.includes(towns[index].state)) return 0;
      const known = hits.get(index);
      if (known === quality) return 0;
      if (known === undefined || quality < known) hits.set(index, quality);
      return 1;
    };
    let taken = 0;
    for (const index of exactNames.get(text) ?? [])
      if ((taken += add(index, EXACT + penalty)) >= limit) break;
    for (const [buckets, quality] of [
      [nameStarts, PREFIX],
      [laterWordStarts, LATER_WORD],
    ] as const) {
      const bucket = buckets.get(text.slice(0, 2));
      if (!bucket) continue;
      taken = 0;
      for (let at = 0; at < bucket.keys.length && taken < limit; at++) {
        if (bucket.keys[at].startsWith(text)) taken += add(bucket.towns[at], quality + penalty);
      }
    }
  }

  /** Every reading of a typed text: as a name, as "city, ST", and as "city ST" with a full or partial state. */
  function candidates(text: string, limit: number): Hits {
    const hits: Hits = new Map();
    const comma = text.lastIndexOf(',');
    if (comma >= 0) {
      const city = normalize(text.slice(text.lastIndexOf(',', comma - 1) + 1, comma));
      const qualifier = normalize(text.slice(comma + 1));
      const states = statesStartingWith(qualifier);
      // "Austin, T" while typing; an unknown qualifier ("Paris, France") does not hide the city.
      collectNames(
        city,
        qualifier && states.length ? states : null,
        qualifier && !exactState(qualifier) ? 1 : 0,
        limit,
        hits,
      );
      return hits;
    }
    const key = normalize(text);
    collectNames(key, null, 0, limit, hits);
    const words = key.split(' ');
    for (let count = 1; count <= 3 && count < words.length; count++) {
      const qualifier = words.slice(-count).join(' ');
      const states = statesStartingWith(qualifier);
      // "des mo" is more likely Des Moines than a "Des…" in Missouri: a partial state ranks lower.
      if (states.length)
        collectNames(
          words.slice(0, -count).join(' '),
          states,
          exactState(qualifier) ? 0 : 1,
          limit,
          hits,
        );
    }
    const state = exactState(key);
    if (state) {
      for (const index of table().byState.get(state)?.slice(0, limit) ?? [])
        if (!hits.has(index)) hits.set(index, STATE_ONLY);
    }
    return hits;
  }

  function search(query: string, limit = 10): Place[] {
    const text = query.trim().slice(0, 200);
    if (!text || limit < 1) return [];
    const digits = /^(\d{1,5})(?:-\d{0,4})?$/.exec(text);
    if (digits) return zipsStartingWith(digits[1], limit);
    // A pasted address: its ZIP first, then the towns its words name.
    const zip = /\b(\d{5})(?:-\d{4})?\b/.exec(text);
    const zipHit = zip ? zipsStartingWith(zip[1], 1) : [];
    const rest = zip
      ? (text.slice(0, zip.index) + text.slice(zip.index + zip[0].length)).replace(/[\s,]+$/, '')
      : text;
    const { towns } = table();
    const ranked = [...candidates(rest, limit)].sort(
      ([a, qualityA], [b, qualityB]) =>
        qualityA - qualityB ||
        (towns[b].population ?? 0) - (towns[a].population ?? 0) ||
        (towns[a].name < towns[b].name ? -1 : 1),
    );
    return [
      ...zipHit,
      ...ranked.slice(0, limit - zipHit.length).map(([index]) => townPlace(index)),
    ];
  }

  function geocode(text: string): Place | null {
    const cleaned = text.trim().replace(/[\s,]*\b(usa|us|united states( of america)?)\.?$/i, '');
    if (!cleaned) return null;
    const zip = /\b(\d{5})(?:-\d{4})?$/.exec(cleaned);
    const zipRow = zip ? table().zipRowOf[Number(zip[1])] : 0;
    if (zipRow) return zipPlace(zipRow - 1);
    const withoutZip = (zip ? cleaned.slice(0, zip.index) : cleaned).replace(/[\s,]+$/, '');
    const parts = withoutZip
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (!parts.length) return null;
    // "…, Chicago, IL" or "…, Chicago IL": the state is the last part, or the last words of it.
    const last = normalize(parts[parts.length - 1]);
    let state = exactState(last);
    let city = state ? normalize(parts[parts.length - 2] ?? '') : last;
    if (!state) {
      const words = last.split(' ');
      for (let count = 1; count <= 3 && count < words.length && !state; count++) {
        state = exactState(words.slice(-count).join(' '));
        if (state) city = words.slice(0, -count).join(' ');
      }
    }
    const states = state ? [state] : null;
    // "500 W Madison St Chicago": the longest run of last words that is a town's whole name.
    const words = city.split(' ');
    for (let start = 0; start < words.length; start++) {
      const exact = best(words.slice(start).join(' '), states, EXACT);
      if (exact >= 0) return townPlace(exact);
    }
    const prefix = best(city, states, PREFIX);
    if (prefix >= 0) return townPlace(prefix);
    return search(withoutZip, 1)[0] ?? null;
  }

  /** The most populous town that matches `text` at least as well as `worst`, or -1. */
  function best(text: string, states: readonly string[] | null, worst: number): number {
    const hits: Hits = new Map();
    collectNames(text, states, 0, 1, hits);
    const { towns } = table();
    let chosen = -1,
      chosenQuality = Infinity;
    for (const [index, quality] of hits) {
      if (quality > worst) continue;
      if (
        quality < chosenQuality ||
        (quality === chosenQuality &&
          (towns[index].population ?? 0) > (towns[chosen].population ?? 0))
      ) {
        chosen = index;
        chosenQuality = quality;
      }
    }
    return chosen;
  }

  function reverse(latitude: number, longitude: number): Place | null {
    if (
      !Number.isFinite(latitude) ||
      !Number.isFinite(longitude) ||
      Math.abs(latitude) > 90 ||
      Math.abs(longitude) > 180
    )
      return null;
    // The town of the nearest ZIP centroid: in Midtown Manhattan that is New York, not the closer-pointed Weehawken.
    const { zipGrid, zipLatitudes, zipLongitudes, zipTowns } = table();
    const { index } = nearest(zipGrid, zipLatitudes, zipLongitudes, latitude, longitude);
    return index >= 0 ? townPlace(zipTowns[index]) : null;
  }

  return { search, geocode, reverse };
}

/** Each matching town at its best quality. */
type Hits = Map<number, number>;

let shared: PlaceSearch | null = null;
/** The process-wide gazetteer: built on its first query, then shared. */
export function gazetteer(): PlaceSearch {
  return (shared ??= createGazetteer());
}
