/**
 * Text rules shared by the gazetteer's index and its queries: one normal form for names, the
 * "Saint"/"St." style variants, and the 50 states with the District of Columbia.
 */

/** The states the gazetteer holds (GeoNames files Puerto Rico and the territories as countries). */
export const stateNames: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

const abbreviations = new Set(Object.keys(stateNames));
export const isState = (abbreviation: string) => abbreviations.has(abbreviation);

/** Lower case, no accents, no punctuation; apostrophes vanish ("Coeur d'Alene" → "coeur dalene"). */
export function normalize(text: string): string {
  const unaccented = nonAscii.test(text)
    ? text.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    : text;
  return unaccented
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const nonAscii = /[^\x00-\x7f]/;

const normalStates = Object.entries(stateNames).map(([abbreviation, name]) => ({
  abbreviation,
  key: normalize(name),
  short: abbreviation.toLowerCase(),
}));

/** The state a normalized text names in full ("illinois", "il"), or null. */
export function exactState(text: string): string | null {
  for (const state of normalStates)
    if (state.short === text || state.key === text) return state.abbreviation;
  return null;
}

/** States a partly typed qualifier may mean: the exact abbreviation, or names that start with it. */
export function statesStartingWith(text: string): string[] {
  if (!text) return [];
  const exact = exactState(text);
  if (exact) return [exact];
  return normalStates
    .filter((state) => state.key.startsWith(text))
    .map((state) => state.abbreviation);
}

// GeoNames writes "St. Louis" and "Saint Paul", ZIP files "Saint Louis": both forms are indexed.
const otherForm = new Map([
  ['st', 'saint'],
  ['ste', 'sainte'],
  ['ft', 'fort'],
  ['mt', 'mount'],
  ['saint', 'st'],
  ['sainte', 'ste'],
  ['fort', 'ft'],
  ['mount', 'mt'],
]);
const anyForm = /\b(st|ste|ft|mt|saint|sainte|fort|mount)\b/g;
const longForm = /\b(saint|sainte|fort|mount)\b/g;

/** The other spelling of a normalized name, when it has one ("st louis" ↔ "saint louis"). */
export function variant(key: string): string | null {
  const swapped = key.replace(anyForm, (word) => otherForm.get(word)!);
  return swapped === key ? null : swapped;
}

/** The key two sources' names must share to be the same town: short forms, and no spaces ("Mc Lean" = "McLean"). */
export function matchKey(name: string): string {
  return normalize(name)
    .replace(longForm, (word) => otherForm.get(word)!)
    .replaceAll(' ', '');
}
