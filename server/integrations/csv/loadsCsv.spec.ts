import t from 'tap';
import {
  LOADS_CSV_COLUMNS,
  loadsCsvTemplate,
  parseLoadsCsv,
  type GeocodedPlace,
  type LoadsCsvColumn,
  type LoadsCsvResult,
} from './loadsCsv.ts';

const NOW = '2026-11-20T15:00:00.000Z';

// The place search is an outside service: a few known cities stand in for it.
const places: Record<string, GeocodedPlace> = {
  'chicago, il': {
    address: 'Chicago, IL, USA',
    latitude: 41.8781,
    longitude: -87.6298,
    city: 'Chicago',
    state: 'IL',
  },
  'indianapolis, in': {
    address: 'Indianapolis, IN, USA',
    latitude: 39.7684,
    longitude: -86.1581,
    city: 'Indianapolis',
    state: 'IN',
  },
  'dallas, tx': {
    address: 'Dallas, TX, USA',
    latitude: 32.7767,
    longitude: -96.797,
    city: 'Dallas',
    state: 'TX',
  },
  'phoenix, az': {
    address: 'Phoenix, AZ, USA',
    latitude: 33.4484,
    longitude: -112.074,
    city: 'Phoenix',
    state: 'AZ',
  },
};
const geocoded: string[] = [];
const geocode = (query: string): GeocodedPlace | null => {
  geocoded.push(query);
  return places[query.trim().toLowerCase()] ?? null;
};
const options = { now: NOW, geocode };

const quote = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
const line = (values: readonly string[]) => values.map(quote).join(',');
const HEADER = line(LOADS_CSV_COLUMNS);

/** A valid row: Chicago to Dallas in December, as a spreadsheet would write it. */
const row = (overrides: Partial<Record<LoadsCsvColumn, string>> = {}): string => {
  const values: Record<LoadsCsvColumn, string> = {
    pickupStart: '12/01/2026 08:00 AM',
    pickupEnd: '',
    pickupTimezone: 'America/Chicago',
    pickupFacility: 'Acme DC',
    pickupAddress: 'Chicago, IL',
    pickupContactName: 'Ann Lee',
    pickupContactPhone: '(312) 555-0100',
    pickupNumber: 'PU-1',
    dropoffStart: '12/02/2026 02:00 PM',
    dropoffEnd: '',
    dropoffTimezone: 'Chicago',
    dropoffFacility: 'Dallas Cold Storage',
    dropoffAddress: 'Dallas, TX',
    dropoffContactName: '',
    dropoffContactPhone: '',
    dropoffNumber: 'DO-1',
    expiration: '11/30/2026 05:00 PM',
    expirationTimezone: 'America/Chicago',
    loadType: 'FTL',
    equipment: '53 ft Reefer;8',
    accessories: 'Liftgate',
    weight: '42,000',
    commodity: 'Frozen food',
    refNumber: 'PO-1',
    description: '',
    ...overrides,
  };
  return line(LOADS_CSV_COLUMNS.map((column) => values[column]));
};
const file = (...rows: string[]) => `${[HEADER, ...rows].join('\r\n')}\r\n`;
const errorsOf = (result: LoadsCsvResult) => (result.ok ? [] : result.errors);

t.test('the template parses back into one valid load', async (t) => {
  const template = loadsCsvTemplate(NOW);
  const [header, example, rest] = template.split('\r\n');
  t.equal(header, LOADS_CSV_COLUMNS.join(','), 'the header names every column');
  t.match(example, /"Chicago, IL"/);
  t.equal(rest, '', 'one example row');
  const result = parseLoadsCsv(Buffer.from(template), options);
  t.ok(result.ok, JSON.stringify(errorsOf(result)));
  if (!result.ok) return;
  t.equal(result.loads.length, 1);
  const [load] = result.loads;
  // Now is 09:00 in Chicago on Friday 20 November: pickup three days later at 08:00 CST.
  t.equal(load.pickupStart, '2026-11-23T14:00:00.000Z');
  t.equal(load.dropoffStart, '2026-11-24T14:00:00.000Z');
  t.equal(load.expiration, '2026-11-22T23:00:00.000Z');
  t.same(
    load.locations.map((stop) => [stop.locationType, stop.address, stop.city, stop.state]),
    [
      [1, 'Chicago, IL, USA', 'Chicago', 'IL'],
      [4, 'Indianapolis, IN, USA', 'Indianapolis', 'IN'],
    ],
  );
  t.same([load.loadTypeId, load.equipment, load.accessories], [1, [15], [4, 2]]);
  t.ok(
    parseLoadsCsv(loadsCsvTemplate('2027-07-03T04:30:00.000Z'), {
      ...options,
      now: '2027-07-03T04:30:00.000Z',
    }).ok,
    'valid at another time too',
  );
});

t.test('1,000 generated rows all become loads, in order', async (t) => {
  const cities = ['Chicago, IL', 'Indianapolis, IN', 'Dallas, TX', 'Phoenix, AZ'];
  const rows = Array.from({ length: 1000 }, (_, index) =>
    row({
      pickupAddress: cities[index % 4],
      dropoffAddress: cities[(index + 1) % 4],
      pickupStart: `2026-12-${String(1 + (index % 28)).padStart(2, '0')}T08:00`,
      dropoffStart: `2026-12-${String(1 + (index % 28)).padStart(2, '0')}T20:00`,
      dropoffTimezone: index % 2 ? 'America/Phoenix' : 'Phoenix',
      expiration: '11/30/2026 05:00 PM',
      loadType: index % 2 ? 'ltl' : 'FTL',
      weight: String(1000 + index),
      refNumber: `PO-${index}`,
    }),
  );
  geocoded.length = 0;
  const result = parseLoadsCsv(file(...rows), options);
  t.ok(result.ok, JSON.stringify(errorsOf(result).slice(0, 3)));
  if (!result.ok) return;
  t.equal(result.loads.length, 1000);
  t.same(
    result.loads.map((load) => load.refNumber),
    rows.map((_, index) => `PO-${index}`),
  );
  t.same(result.loads[1], {
    ...result.loads[1],
    loadTypeId: 2,
    weight: 1001,
    dropoffTimezone: 'America/Phoenix',
    pickupStart: '2026-12-02T14:00:00.000Z',
    dropoffStart: '2026-12-03T03:00:00.000Z',
  });
  t.equal(result.loads[0].dropoffTimezone, 'America/Phoenix', 'a zone by its name');
  t.ok(geocoded.length <= cities.length, 'each place is looked up once');
});

t.test('one bad row among good ones: exactly its line and column', async (t) => {
  const good = Array.from({ length: 8 }, (_, index) => row({ refNumber: `PO-${index}` }));
  const cases: [Partial<Record<LoadsCsvColumn, string>>, string, string][] = [
    [{ weight: 'heavy' }, 'weight', 'Please enter weight'],
    [{ pickupAddress: 'Atlantis, XX' }, 'pickupAddress', 'Please select a valid location'],
    [{ dropoffAddress: '' }, 'dropoffAddress', 'Please select a valid location.'],
    [
      { dropoffStart: '11/30/2026 08:00 AM' },
      'dropoffStart',
      "Dropoff can't be before pickup start date",
    ],
    [
      { expiration: '11/20/2026 08:59 AM' },
      'expiration',
      "Expiration can't be before current date and time.",
    ],
    [{ pickupEnd: '12/1/2026' }, 'pickupEnd', 'Please enter a valid date and time'],
    [{ expirationTimezone: 'CET' }, 'expirationTimezone', 'Please select a valid timezone'],
    [
      { pickupContactPhone: '555' },
      'pickupContactPhone',
      'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)',
    ],
    [
      { dropoffFacility: 'AB' },
      'dropoffFacility',
      'Please enter the name with more then 3 characters.',
    ],
    [{ equipment: 'Hover truck' }, 'equipment', 'Please select a valid load equipment'],
    [{ equipment: ' ; ' }, 'equipment', 'Please select at least one load equipment'],
    [{ accessories: '' }, 'accessories', 'Please enter load accessories'],
    [{ loadType: 'XL' }, 'loadType', 'Please select a load type'],
    [{ commodity: '' }, 'commodity', 'Please enter commodity'],
    [{ refNumber: '' }, 'refNumber', 'Please enter reference number'],
  ];
  for (const [overrides, field, message] of cases) {
    // Line 1 header, lines 2-5 good rows, line 6-7 one row with a two-line description, line 8 the bad row.
    const content = file(
      ...good.slice(0, 4),
      row({ description: 'Dock 4\r\nring twice' }),
      row(overrides),
      ...good.slice(4),
    );
    const result = parseLoadsCsv(content, options);
    t.notOk(result.ok, `${field} refused`);
    if (result.ok) continue;
    t.equal(result.message, 'The file has errors; no load was imported');
    t.same(result.errors, [{ row: 8, field, message }], `${field}: ${message}`);
  }
});

t.test('every bad row is reported, at most 1,000 errors', async (t) => {
  const result = parseLoadsCsv(
    file(row({ weight: '0' }), row(), row({ commodity: '', refNumber: '' })),
    options,
  );
  t.same(errorsOf(result), [
    { row: 2, field: 'weight', message: 'Please enter weight' },
    { row: 4, field: 'commodity', message: 'Please enter commodity' },
    { row: 4, field: 'refNumber', message: 'Please enter reference number' },
  ]);
  const many = parseLoadsCsv(
    file(...Array.from({ length: 600 }, () => row({ commodity: '', refNumber: '' }))),
    options,
  );
  t.equal(errorsOf(many).length, 1000);
  t.same(errorsOf(many).at(-1), {
    row: 501,
    field: 'refNumber',
    message: 'Please enter reference number',
  });
});

t.test('the header: every column once, in any order, any case', async (t) => {
  const missing = parseLoadsCsv(`${HEADER.replace(',weight', '')}\r\n${row()}\r\n`, options);
  t.same(
    errorsOf(missing).map((error) => [error.row, error.field]),
    [[1, 'header']],
  );
  t.match(errorsOf(missing)[0].message, /missing columns: weight/);
  const unknown = parseLoadsCsv(`${HEADER},price\r\n${row()},100\r\n`, options);
  t.same(
    errorsOf(unknown).map((error) => [error.row, error.field]),
    [[1, 'header']],
  );
  t.match(errorsOf(unknown)[0].message, /unknown columns: price/);
  t.match(
    errorsOf(parseLoadsCsv(`${HEADER},weight\r\n${row()},1\r\n`, options))[0].message,
    /repeated columns: weight/,
  );
  const reversed = [...LOADS_CSV_COLUMNS].reverse();
  const values = row()
    .match(/("[^"]*"|[^,]*)(,|$)/g)!
    .slice(0, LOADS_CSV_COLUMNS.length)
    .map((cell) => cell.replace(/,$/, ''))
    .reverse();
  const reordered = parseLoadsCsv(
    `${reversed.map((column) => column.toUpperCase()).join(',')},,\r\n${values.join(',')},,\r\n`,
    options,
  );
  t.ok(reordered.ok, JSON.stringify(errorsOf(reordered)));
  t.same(errorsOf(parseLoadsCsv(file(`${row()},surplus`), options)), [
    { row: 2, field: 'row', message: "This row has more cells than the header's 25 columns" },
  ]);
});

t.test('quoting, BOM, line endings and blank lines', async (t) => {
  const content = `\uFEFF${HEADER}\n\n${row({ description: 'Fragile, "handle with care"\nsecond line', commodity: 'Nuts, bolts' })}\n   \n${row({ refNumber: 'PO-2' })}`;
  const result = parseLoadsCsv(content, options);
  t.ok(result.ok, JSON.stringify(errorsOf(result)));
  if (!result.ok) return;
  t.equal(result.loads.length, 2);
  t.equal(result.loads[0].description, 'Fragile, "handle with care"\nsecond line');
  t.equal(result.loads[0].commodity, 'Nuts, bolts');
  t.equal(result.loads[0].weight, 42000, '"42,000" is a weight');
  t.same(result.loads[0].equipment, [15, 8], 'names and ids');
  const bad = parseLoadsCsv(
    `\uFEFF${HEADER}\n\n${row({ description: 'a\nb' })}\n   \n${row({ weight: '' })}\n`,
    options,
  );
  t.same(
    errorsOf(bad),
    [{ row: 6, field: 'weight', message: 'Please enter weight' }],
    'lines counted with blank lines and a two-line cell',
  );
});

t.test('files that are not a batch of loads', async (t) => {
  for (const content of ['', '\uFEFF', '\r\n\r\n']) {
    const result = parseLoadsCsv(content, options);
    t.same(result, {
      ok: false,
      message: 'The file has no loads',
      errors: [{ row: 1, field: 'file', message: 'The file has no loads' }],
    });
  }
  t.same(errorsOf(parseLoadsCsv(`${HEADER}\r\n`, options)), [
    { row: 2, field: 'file', message: 'The file has no loads' },
  ]);
  const tooMany = parseLoadsCsv(file(row(), row(), row(), row()), { ...options, maxRows: 3 });
  t.match(tooMany, {
    ok: false,
    message: /more than 3 loads/,
    errors: [{ row: 5, field: 'file' }],
  });
  t.ok(
    parseLoadsCsv(file(row(), row(), row()), { ...options, maxRows: 3 }).ok,
    'the limit itself is fine',
  );
  const broken = parseLoadsCsv(`${HEADER}\r\n${row()}\r\n"unclosed,quote\r\n`, options);
  t.match(broken, { ok: false, errors: [{ field: 'file', message: /not a valid CSV/ }] });
});
