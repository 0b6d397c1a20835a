/**
 * Joins GeoNames cities and ZIP centroids into one in-memory table of US towns, with the indexes
 * the queries use: exact names, name keys bucketed by their first one and two characters (each list
 * most populous town first, so a scan can stop after `limit` matches), ZIP codes by number, the
 * towns of each state, and a one-degree grid of ZIP centroids for the town around a point. The only
 * big sort is of the towns, once, by population: the build runs on the first query and is kept short.
 */
import { isState, matchKey, normalize, variant } from './text.ts';
import { readGeoNamesCities, readZipCodes, type SourceCity, type SourceZip } from './sources.ts';
import { cellOf, kilometres, nearest } from './gazetteer.grid.ts';
import { groupZips, isRoughCentroid, round, type ZipGroup } from './gazetteer.zips.ts';

export type Town = {
  id: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  /** GeoNames' figure; null for a town known only from its ZIP codes (under 1000 people). */
  population: number | null;
  /** Its ZIP code when it has exactly one. */
  zip: string | null;
  /** A GeoNames section of a city (PPLX, "Chicago Loop"): found by name, but not listed among its state's towns. */
  section: boolean;
};

/** Name keys that start with the same characters, most populous town first. */
export type NameBucket = { keys: string[]; towns: number[] };

export type GazetteerTable = {
  towns: Town[];
  /** Each spelling of a name → its towns, most populous first. */
  exactNames: Map<string, number[]>;
  /** Whole names, and names from a later word on ("york city"), by their first one and first two characters. */
  nameStarts: Map<string, NameBucket>;
  laterWordStarts: Map<string, NameBucket>;
  /** ZIP code as a number → its row + 1 (0: no such code). */
  zipRowOf: Int32Array;
  zipCodes: string[];
  zipTowns: Int32Array;
  zipLatitudes: Float64Array;
  zipLongitudes: Float64Array;
  /** Each state's towns (not sections), most populous first. */
  byState: Map<string, number[]>;
  /** ZIP rows by one-degree cell (see `cellOf`): the nearest ZIP centroid tells the town a point is in. */
  zipGrid: Map<number, number[]>;
};

/** A ZIP group this far from a GeoNames town of its name is another town of the same name. */
const SAME_TOWN_KM = 40;
/** How far a ZIP code of a company or an agency may lie from the town it is filed under. */
const ATTACH_KM = 30;

export function buildTable(
  cities: SourceCity[] = readGeoNamesCities(),
  zipRows: SourceZip[] = readZipCodes(),
): GazetteerTable {
  const towns: Town[] = [];
  const aliases: string[][] = [];
  const townsByKey = new Map<string, number[]>();
  const addTown = (town: Town) => {
    aliases.push([]);
    return towns.push(town) - 1;
  };
  for (const city of cities) {
    // Abandoned (PPLQ) and historical (PPLH) places are not pickup points.
    if (!isState(city.state) || city.featureCode === 'PPLQ' || city.featureCode === 'PPLH')
      continue;
    const index = addTown({
      id: `geonames:${city.geonameId}`,
      name: city.name,
      state: city.state,
      latitude: city.latitude,
      longitude: city.longitude,
      population: city.population,
      zip: null,
      section: city.featureCode === 'PPLX',
    });
    pushTo(townsByKey, `${city.state}|${matchKey(city.name)}`, index);
  }

  const groups = groupZips(zipRows);
  const nearestNamed = (group: ZipGroup, key: string, taken?: Set<number>) => {
    let best = -1,
      bestKm = SAME_TOWN_KM;
    for (const index of townsByKey.get(key) ?? []) {
      const km = kilometres(
        group.latitude,
        group.longitude,
        towns[index].latitude,
        towns[index].longitude,
      );
      if (km <= bestKm && !taken?.has(index)) {
        best = index;
        bestKm = km;
      }
    }
    return best;
  };
  const matched = new Set<number>();
  for (const group of groups) {
    group.town = nearestNamed(group, group.key);
    if (group.town >= 0) matched.add(group.town);
  }
  const unmatched: ZipGroup[] = [];
  for (const group of groups) {
    if (group.town >= 0) continue;
    // GeoNames says "New York City" where the Postal Service says "New York": the postal name wins.
    group.town = nearestNamed(group, `${group.key}city`, matched);
    if (group.town < 0) {
      unmatched.push(group);
      continue;
    }
    const town = towns[group.town];
    aliases[group.town].push(town.name);
    town.name = town.name.replace(/ City$/, '');
    matched.add(group.town);
  }
  // Codes filed under a company or an agency ("Bank Of America") have only the old two-decimal
  // centroids; they belong to the town around them. A real town under 1000 people becomes a locality.
  const townGrid = new Map<number, number[]>();
  towns.forEach((town, index) => {
    if (!town.section) pushTo(townGrid, cellOf(town.latitude, town.longitude), index);
  });
  const townLatitudes = towns.map((town) => town.latitude);
  const townLongitudes = towns.map((town) => town.longitude);
  for (const group of unmatched) {
    if (group.zips.every(isRoughCentroid)) {
      const near = nearest(
        townGrid,
        townLatitudes,
        townLongitudes,
        group.latitude,
        group.longitude,
      );
      if (near.index >= 0 && near.km <= ATTACH_KM) {
        group.town = near.index;
        group.attached = true;
        continue;
      }
    }
    const first = group.zips.reduce(
      // Zip codes are strings: the lowest in text order (Math.min would not compare them).
      // biome-ignore lint/complexity/useMathMinMax: compares strings
      (lowest, row) => (row.zip < lowest ? row.zip : lowest),
      group.zips[0].zip,
    );
    group.town = addTown({
      id: `locality:${first}`,
      name: group.name,
      state: group.state,
      latitude: round(group.latitude),
      longitude: round(group.longitude),
      population: null,
      zip: null,
      section: false,
    });
  }

  const zipCount = new Map<number, number>();
  const zipRowOf = new Int32Array(100_000);
  const zipCodes: string[] = [];
  const zipTowns: number[] = [];
  const zipLatitudes: number[] = [];
  const zipLongitudes: number[] = [];
  const zipGrid = new Map<number, number[]>();
  for (const group of groups) {
    const town = towns[group.town];
    // "Mc Lean" finds McLean; a company's name does not find the town its code is filed under.
    if (
      !group.attached &&
      group.name !== town.name &&
      normalize(group.name) !== normalize(town.name)
    )
      aliases[group.town].push(group.name);
    zipCount.set(group.town, (zipCount.get(group.town) ?? 0) + group.zips.length);
    for (const row of group.zips) {
      zipRowOf[Number(row.zip)] = zipCodes.push(row.zip);
      if (!group.attached)
        pushTo(zipGrid, cellOf(row.latitude, row.longitude), zipCodes.length - 1);
      zipTowns.push(group.town);
      zipLatitudes.push(row.latitude);
      zipLongitudes.push(row.longitude);
    }
  }
  for (const group of groups)
    if (zipCount.get(group.town) === 1) towns[group.town].zip = group.zips[0].zip;

  const byPopulation = towns
    .map((_, index) => index)
    .sort((a, b) => (towns[b].population ?? 0) - (towns[a].population ?? 0));
  return {
    towns,
    ...nameIndex(towns, aliases, byPopulation),
    zipRowOf,
    zipCodes,
    zipTowns: Int32Array.from(zipTowns),
    zipLatitudes: Float64Array.from(zipLatitudes),
    zipLongitudes: Float64Array.from(zipLongitudes),
    byState: townsByState(towns, byPopulation),
    zipGrid,
  };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Every spelling of each town, whole and from each later word on ("york" finds New York), most populous first. */
function nameIndex(towns: Town[], aliases: string[][], byPopulation: number[]) {
  const exactNames = new Map<string, number[]>();
  const nameStarts = new Map<string, NameBucket>();
  const laterWordStarts = new Map<string, NameBucket>();
  const addTo = (buckets: Map<string, NameBucket>, prefix: string, key: string, town: number) => {
    const bucket = buckets.get(prefix);
    if (bucket) {
      bucket.keys.push(key);
      bucket.towns.push(town);
    } else buckets.set(prefix, { keys: [key], towns: [town] });
  };
  const add = (buckets: Map<string, NameBucket>, key: string, town: number) => {
    addTo(buckets, key[0], key, town);
    if (key.length > 1) addTo(buckets, key.slice(0, 2), key, town);
  };
  const addSpelling = (key: string, town: number) => {
    pushTo(exactNames, key, town);
    add(nameStarts, key, town);
    for (let at = key.indexOf(' '); at >= 0; at = key.indexOf(' ', at + 1))
      add(laterWordStarts, key.slice(at + 1), town);
  };
  for (const index of byPopulation) {
    // A spelling met twice is harmless: a query keeps each town once.
    for (const name of aliases[index].length
      ? [towns[index].name, ...aliases[index]]
      : [towns[index].name]) {
      const key = normalize(name);
      if (!key) continue;
      addSpelling(key, index);
      const other = variant(key);
      if (other) addSpelling(other, index);
    }
  }
  return { exactNames, nameStarts, laterWordStarts };
}

function townsByState(towns: Town[], byPopulation: number[]) {
  const byState = new Map<string, number[]>();
  for (const index of byPopulation)
    if (!towns[index].section) pushTo(byState, towns[index].state, index);
  return byState;
}
