import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { attribution, gazetteer, type Place } from './gazetteer.ts';
import { readZipCodes } from './sources.ts';

const places = gazetteer();
const addresses = (found: Place[]) => found.map((place) => place.address);

// The first query builds the table from the two packages; it is timed here and reported.
const cpuBefore = process.cpuUsage();
const started = performance.now();
const chicago = places.search('chic');
const firstLoadMs = performance.now() - started;
const firstLoadCpu = process.cpuUsage(cpuBefore);
const firstLoadCpuMs = (firstLoadCpu.user + firstLoadCpu.system) / 1000;
t.comment(
  `first load (build of the table and the first query): ${firstLoadMs.toFixed(0)} ms wall, ${firstLoadCpuMs.toFixed(0)} ms CPU`,
);

t.test('search: a name prefix finds the most populous town first', async (t) => {
  t.match(chicago[0], {
    name: 'Chicago',
    address: 'Chicago, IL',
    city: 'Chicago',
    state: 'IL',
    zip: null,
    id: /^geonames:/,
  });
  t.ok(
    Math.abs(chicago[0].latitude - 41.85) < 0.1 && Math.abs(chicago[0].longitude + 87.65) < 0.1,
    'with its coordinates',
  );
  t.ok(chicago[0].population! > 2_000_000);
  t.equal(chicago.length, 10, 'ten by default');
  t.ok(
    chicago.every((place) => /^chic/i.test(place.name) || / chic/i.test(place.name)),
    'every answer matches',
  );
  t.equal(places.search('CHICAGO')[0].address, 'Chicago, IL', 'case does not matter');
  t.equal(places.search('chic', 3).length, 3, 'the limit is kept');
  t.same(places.search(''), []);
  t.same(places.search('   '), []);
  t.same(places.search('qqqzzz'), [], 'nothing matches');
});

t.test('search: one name in several states, most populous first', async (t) => {
  const springfields = places.search('springfield', 8);
  t.ok(
    springfields.every((place) => place.name === 'Springfield'),
    'exact names come before longer ones',
  );
  t.ok(new Set(springfields.map((place) => place.state)).size >= 6, 'from several states');
  t.same(
    springfields.slice(0, 3).map((place) => place.state),
    ['MO', 'MA', 'IL'],
  );
  const populations = springfields.map((place) => place.population ?? 0);
  t.same(
    populations,
    [...populations].sort((a, b) => b - a),
    'ordered by population',
  );
});

t.test('search: "City, ST", "City ST" and state names narrow the state', async (t) => {
  for (const query of ['austin, tx', 'Austin TX', 'austin, texas', 'AUSTIN, T'])
    t.equal(places.search(query)[0].address, 'Austin, TX', query);
  t.equal(places.search('springfield il')[0].address, 'Springfield, IL');
  t.equal(places.search('Springfield, Illinois')[0].address, 'Springfield, IL');
  t.equal(places.search('kansas city missouri')[0].address, 'Kansas City, MO');
  t.equal(
    places.search('des mo')[0].address,
    'Des Moines, IA',
    'a partial state ("mo") does not outrank the name',
  );
  const texas = addresses(places.search('texas', 10));
  t.equal(texas[0], 'Texas City, TX', 'a town named after the state first');
  t.ok(
    texas.includes('Houston, TX') && texas.includes('Dallas, TX'),
    'then the biggest towns of the state',
  );
  t.ok(
    addresses(places.search('paris, france')).includes('Paris, TX'),
    'a qualifier that is not a state does not hide the name',
  );
});

t.test('search: New York, saints, accents, punctuation', async (t) => {
  const newYork = places.search('new york');
  t.match(newYork[0], { name: 'New York', address: 'New York, NY', state: 'NY' });
  t.ok(
    newYork[0].population! > 8_000_000,
    'the city (GeoNames "New York City"), under its postal name',
  );
  t.equal(places.search('new york city')[0].id, newYork[0].id, 'the GeoNames name still finds it');
  t.equal(places.search('st louis')[0].address, 'St. Louis, MO');
  t.equal(places.search('saint louis')[0].address, 'St. Louis, MO');
  t.equal(places.search('ft worth')[0].address, 'Fort Worth, TX');
  t.equal(places.search('canon city')[0].address, 'Cañon City, CO', 'accents are ignored');
  t.equal(places.search('espanola')[0].address, 'Española, NM');
  t.equal(places.search('winston-s')[0].address, 'Winston-Salem, NC');
  t.equal(places.search('coeur d')[0].address, "Coeur d'Alene, ID");
  t.equal(
    places.search('mc lean')[0].address,
    'McLean, VA',
    'the ZIP spelling finds the GeoNames town',
  );
});

t.test('search: exact before prefix before a later word', async (t) => {
  const york = addresses(places.search('york', 25));
  t.equal(york[0], 'York, PA');
  t.ok(
    york.indexOf('Yorkville, IL') > york.lastIndexOf('York, ME'),
    'prefixes after every exact York',
  );
  const chic = addresses(places.search('chicago', 25));
  t.ok(
    chic.indexOf('Chicago Heights, IL') < chic.indexOf('East Chicago, IN'),
    'a name prefix before a later word',
  );
});

t.test('search: ZIP codes and their prefixes', async (t) => {
  t.same(places.search('60607'), [
    {
      id: 'zip:60607',
      name: 'Chicago',
      address: '60607 — Chicago, IL',
      latitude: places.search('60607')[0].latitude,
      longitude: places.search('60607')[0].longitude,
      city: 'Chicago',
      state: 'IL',
      zip: '60607',
      population: null,
    },
  ]);
  t.ok(Math.abs(places.search('60607')[0].latitude - 41.87) < 0.05);
  t.equal(places.search('60607-1234')[0].zip, '60607', 'ZIP+4');
  const prefix = places.search('606', 5);
  t.same(
    prefix.map((place) => place.zip),
    ['60601', '60602', '60603', '60604', '60605'],
    'in order',
  );
  t.same(places.search('00000'), []);
  t.equal(
    places.search('60663')[0].address,
    '60663 — Chicago, IL',
    'a company\'s code ("Sbc") is filed under its town',
  );
  t.same(places.search('bank of america'), [], 'and its name is not a town');
  t.equal(
    places.search('chicago, il 60607')[0].address,
    '60607 — Chicago, IL',
    'a pasted address: its ZIP first',
  );
  const small = places.search('zurich, mt')[0];
  t.match(
    small,
    { name: 'Zurich', state: 'MT', population: null, zip: '59547', id: 'locality:59547' },
    'a town under 1000 people, from its ZIP',
  );
});

t.test('geocode: the one place a free-text address means', async (t) => {
  t.equal(places.geocode('Indianapolis, IN')?.address, 'Indianapolis, IN');
  t.equal(places.geocode('indianapolis indiana')?.address, 'Indianapolis, IN');
  t.equal(places.geocode('60607')?.address, '60607 — Chicago, IL');
  t.equal(places.geocode('123 Main St, Chicago, IL 60607')?.address, '60607 — Chicago, IL');
  t.equal(places.geocode('500 W Madison St, Chicago, IL')?.address, 'Chicago, IL');
  t.equal(places.geocode('500 W Madison St Chicago IL')?.address, 'Chicago, IL');
  t.equal(places.geocode('Springfield, IL')?.address, 'Springfield, IL');
  t.equal(
    places.geocode('Springfield')?.address,
    'Springfield, MO',
    'without a state, the most populous',
  );
  t.equal(places.geocode('St. Louis, Missouri, USA')?.address, 'St. Louis, MO');
  t.equal(
    places.geocode('Austin, TX 00000')?.address,
    'Austin, TX',
    'an unknown ZIP falls back to the town',
  );
  t.equal(places.geocode('Xyzzy, ZZ'), null);
  t.equal(places.geocode(''), null);
});

t.test('reverse: the town around a point', async (t) => {
  t.equal(places.reverse(41.88, -87.63)?.address, 'Chicago, IL');
  t.equal(
    places.reverse(40.75, -73.99)?.address,
    'New York, NY',
    'Midtown Manhattan, not the closer GeoNames point of Weehawken',
  );
  t.equal(places.reverse(39.74, -104.99)?.address, 'Denver, CO');
  t.equal(places.reverse(21.3, -157.85)?.address, 'Honolulu, HI');
  t.equal(places.reverse(0, 0), null, 'the Gulf of Guinea has no US town');
  t.equal(places.reverse(Number.NaN, 0), null);
});

t.test('queries are fast', async (t) => {
  const queries = [
    'c',
    'ch',
    'chi',
    'chic',
    'chicago',
    'chicago, il',
    's',
    'sa',
    'san',
    'san a',
    'springfield',
    'new york',
    'austin tx',
    '6',
    '606',
    '60607',
    'des mo',
    'texas',
    'st lo',
    'boston, ma',
    'milwaukee wi',
    'los angeles',
    'kansas city missouri',
    'x',
  ];
  for (const query of queries) places.search(query);
  // CPU time rather than wall time: other test files share the machine.
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  const rounds = 20;
  let before = process.cpuUsage();
  for (let round = 0; round < rounds; round++) for (const query of queries) places.search(query);
  const perSearch = cpuMs(before) / (rounds * queries.length);
  before = process.cpuUsage();
  for (let index = 0; index < 1000; index++) places.reverse(25 + (index % 24), -124 + (index % 57));
  const perReverse = cpuMs(before) / 1000;
  t.comment(
    `per search: ${(perSearch * 1000).toFixed(0)} µs CPU; per reverse: ${(perReverse * 1000).toFixed(0)} µs CPU`,
  );
  // Generous bounds; on a quiet machine a search takes tens of µs.
  t.ok(perSearch < 2, `a search takes ${perSearch.toFixed(3)} ms on average`);
  t.ok(perReverse < 2, `a reverse takes ${perReverse.toFixed(3)} ms on average`);
});

t.test('the attribution names GeoNames and its licence', async (t) => {
  t.match(attribution, /GeoNames/);
  t.match(attribution, /CC BY 4\.0/);
});

t.test('readZipCodes reads another field order through JSON', async (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'zipcodes-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const file = path.join(folder, 'codes.js');
  const codes = Object.fromEntries(
    Array.from({ length: 3 }, (_, index) => {
      const zip = `6060${index + 1}`;
      return [
        zip,
        { city: 'Chicago', state: 'IL', zip, country: 'US', latitude: 41.88, longitude: -87.62 },
      ];
    }),
  );
  writeFileSync(
    file,
    `exports.codes = ${JSON.stringify(codes)};\nexports.stateMap = {"IL":["60601"]};\n`,
  );
  t.same(
    readZipCodes(file),
    Object.values(codes).map(({ zip, city, state, latitude, longitude }) => ({
      zip,
      city,
      state,
      latitude,
      longitude,
    })),
  );
});
