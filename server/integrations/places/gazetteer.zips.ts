/** ZIP codes grouped into the towns they are filed under, with a centre for each group. */
import { isState, matchKey } from './text.ts';
import type { SourceZip } from './sources.ts';

export type ZipGroup = {
  key: string;
  name: string;
  state: string;
  zips: SourceZip[];
  latitude: number;
  longitude: number;
  town: number;
  attached: boolean;
};

export const round = (degrees: number) => Math.round(degrees * 1e4) / 1e4;
const decimals = (value: number) => {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
};
export const isRoughCentroid = (row: SourceZip) =>
  decimals(row.latitude) <= 2 && decimals(row.longitude) <= 2;
const median = (values: number[]) => {
  const sorted = values.sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

export function groupZips(rows: SourceZip[]): ZipGroup[] {
  const groups = new Map<string, ZipGroup>();
  const keys = new Map<string, string>();
  for (const row of rows) {
    // Military (AA, AE, AP) and territory codes are outside the map; a few rows have no centroid or
    // a longitude with the sign lost (only the Aleutians lie east of 180°).
    if (
      !isState(row.state) ||
      (row.latitude === 0 && row.longitude === 0) ||
      (row.longitude > 0 && row.state !== 'AK')
    )
      continue;
    let key = keys.get(row.city);
    if (key === undefined) keys.set(row.city, (key = matchKey(row.city)));
    const id = `${row.state}|${key}`;
    const group = groups.get(id);
    if (group) group.zips.push(row);
    else
      groups.set(id, {
        key: id,
        name: row.city,
        state: row.state,
        zips: [row],
        latitude: row.latitude,
        longitude: row.longitude,
        town: -1,
        attached: false,
      });
  }
  for (const group of groups.values()) {
    if (group.zips.length < 3) continue;
    // The median, not the mean: one misplaced code must not move a whole city.
    group.latitude = median(group.zips.map((row) => row.latitude));
    group.longitude = median(group.zips.map((row) => row.longitude));
  }
  return [...groups.values()];
}
