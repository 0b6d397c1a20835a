import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { z } from 'zod';
import {
  cancelLoadBodySchema,
  extendExpirationBodySchema,
  isExtendExpirationBody,
  loadBodySchema,
  parseLoadTime,
  updateLoadBodySchema,
} from './index.ts';

const NOW = '2026-11-20T15:00:00.000Z';
const PHONE_FORMAT =
  'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)';

const pickup = {
  locationType: 1,
  address: 'Chicago, IL 60607',
  latitude: 41.8781,
  longitude: -87.6298,
  city: 'Chicago',
  state: 'IL',
  name: 'Acme DC',
  contactName: 'Ann Lee',
  contactPhone: '(312) 555-0100',
  number: 'PU-1001',
  saveLocation: true,
};
const dropoff = {
  locationType: 4,
  address: 'Indianapolis, IN 46204',
  latitude: 39.7684,
  longitude: -86.1581,
  name: 'Beta Foods',
  contactName: '',
  contactPhone: '',
  number: 'DO-77',
};
/** A valid body as the load form sends it (section 3), in the server time format. */
const body = {
  pickupTimestampStart: '12/01/2026 08:00 AM',
  pickupTimestampEnd: '12/01/2026 10:30 AM',
  pickupTimezone: 'America/Chicago',
  dropOffTimestampStart: '12/02/2026 09:00 AM',
  dropOffTimestampEnd: '',
  dropoffTimezone: 'America/New_York',
  expiration: '11/30/2026 05:00 PM',
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  rate: 1,
  rateTypeId: 1,
  loadAccessories: [4, 2],
  loadEquipment: [15, 8],
  description: '  Call ahead  ',
  weight: '42000',
  commodity: 'Packaged food',
  refNumber: 'PO-10045',
  locations: [pickup, dropoff],
};
const withStops = (...locations: object[]) => ({ ...body, locations });

/** Every issue as `path -> message`. */
const issues = (schema: z.ZodType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')} -> ${issue.message}`);
};
const refuses = (t: Test, schema: z.ZodType, value: unknown, path: string, message: string) =>
  t.ok(
    issues(schema, value).includes(`${path} -> ${message}`),
    `${path} -> ${message} (got ${JSON.stringify(issues(schema, value))})`,
  );
const accepts = (t: Test, schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  t.ok(
    result.success,
    `accepted${result.success ? '' : `: ${JSON.stringify(issues(schema, value))}`}`,
  );
  return result.data as any;
};

const schema = loadBodySchema(NOW);

t.test(
  'parseLoadTime: the server format and ISO 8601, read in the zone sent beside them',
  async (t) => {
    // Phoenix keeps UTC-7 all year; Chicago is UTC-6 in winter and UTC-5 in summer.
    t.equal(parseLoadTime('01/15/2027 08:00 AM', 'America/Phoenix'), '2027-01-15T15:00:00.000Z');
    t.equal(parseLoadTime('07/15/2027 08:00 AM', 'America/Phoenix'), '2027-07-15T15:00:00.000Z');
    t.equal(parseLoadTime('01/15/2027 08:00 AM', 'America/Chicago'), '2027-01-15T14:00:00.000Z');
    t.equal(parseLoadTime('07/15/2027 08:00 AM', 'America/Chicago'), '2027-07-15T13:00:00.000Z');
    t.equal(
      parseLoadTime('2027-07-15T08:00', 'America/Phoenix'),
      '2027-07-15T15:00:00.000Z',
      'internal format',
    );
    t.equal(parseLoadTime('2027-07-15T08:00:00', 'America/Chicago'), '2027-07-15T13:00:00.000Z');
    t.equal(parseLoadTime('2027-01-15T08:00', 'Pacific/Honolulu'), '2027-01-15T18:00:00.000Z');
    t.equal(parseLoadTime('2027-01-15T08:00', 'America/Anchorage'), '2027-01-15T17:00:00.000Z');
    t.equal(
      parseLoadTime('2027-07-15T08:00:00Z', 'America/Chicago'),
      '2027-07-15T08:00:00.000Z',
      'an offset wins over the zone',
    );
    t.equal(
      parseLoadTime('2027-07-15T08:00:00-04:00', 'America/Phoenix'),
      '2027-07-15T12:00:00.000Z',
    );
    t.equal(
      parseLoadTime('12/01/2026 12:00 AM', 'America/New_York'),
      '2026-12-01T05:00:00.000Z',
      '12 AM is midnight',
    );
    t.equal(
      parseLoadTime('12/01/2026 12:30 PM', 'America/New_York'),
      '2026-12-01T17:30:00.000Z',
      '12 PM is noon',
    );
    t.equal(
      parseLoadTime(' 7/4/2027 9:05 pm ', 'America/Los_Angeles'),
      '2027-07-05T04:05:00.000Z',
      'one-digit parts, lower case',
    );
    t.equal(
      parseLoadTime('03/14/2027 02:30 AM', 'America/Chicago'),
      '2027-03-14T08:30:00.000Z',
      'a skipped wall time moves forward',
    );
    for (const unreadable of [
      '',
      'tomorrow',
      '13/01/2026 10:00 AM',
      '02/30/2026 10:00 AM',
      '12/01/2026 13:00 PM',
      '12/01/2026 10:00',
      '2026-12-01',
      '2026-12-01T25:00',
    ]) {
      t.equal(parseLoadTime(unreadable, 'America/Chicago'), null, `unreadable: "${unreadable}"`);
    }
    t.equal(parseLoadTime('12/01/2026 10:00 AM', 'Mars/Olympus'), null, 'an unknown zone');
  },
);

t.test('a valid body passes and is normalised to ISO instants and the domain names', async (t) => {
  const load = accepts(t, schema, body);
  t.same(load, {
    pickupStart: '2026-12-01T14:00:00.000Z',
    pickupEnd: '2026-12-01T16:30:00.000Z',
    pickupTimezone: 'America/Chicago',
    dropoffStart: '2026-12-02T14:00:00.000Z',
    dropoffEnd: null,
    dropoffTimezone: 'America/New_York',
    expiration: '2026-11-30T23:00:00.000Z',
    expirationTimezone: 'America/Chicago',
    loadTypeId: 1,
    rate: 1,
    rateTypeId: 1,
    carriersSortingTypeId: null,
    accessories: [4, 2],
    equipment: [15, 8],
    description: 'Call ahead',
    weight: 42000,
    commodity: 'Packaged food',
    refNumber: 'PO-10045',
    locations: [
      { ...pickup, id: null, savedLocationId: null },
      {
        ...dropoff,
        id: null,
        city: null,
        state: null,
        contactName: null,
        contactPhone: null,
        saveLocation: false,
        savedLocationId: null,
      },
    ],
  });
});

t.test('ISO times, defaults and stop details', async (t) => {
  const savedLocationId = randomUUID();
  const load = accepts(t, schema, {
    ...body,
    pickupTimestampStart: '2026-12-01T08:00',
    pickupTimestampEnd: null,
    pickupTimezone: 'America/Phoenix',
    dropOffTimestampStart: '2026-12-01T20:00:00Z',
    dropOffTimestampEnd: '2026-12-02T08:00',
    dropoffTimezone: 'America/Phoenix',
    expiration: '2026-12-01T06:00',
    expirationTimezone: 'America/Phoenix',
    rate: undefined,
    rateTypeId: undefined,
    description: undefined,
    weight: 1250.5,
    loadTypeId: '2',
    loadAccessories: [10, 10],
    locations: [
      { ...pickup, id: 3, savedLocationId },
      { ...dropoff, locationType: 2, number: 'dropped for extra stops' },
      {
        ...dropoff,
        locationType: 3,
        address: 'Columbus, OH',
        latitude: 39.96,
        longitude: -82.99,
        number: 12,
      },
      { ...dropoff, id: 'b', number: 12 },
    ],
  });
  t.equal(load.pickupStart, '2026-12-01T15:00:00.000Z');
  t.equal(load.pickupEnd, null, 'a disabled latest pickup');
  t.equal(load.dropoffStart, '2026-12-01T20:00:00.000Z');
  t.equal(load.dropoffEnd, '2026-12-02T15:00:00.000Z');
  t.equal(load.expiration, '2026-12-01T13:00:00.000Z');
  t.same(
    [load.rate, load.rateTypeId, load.description, load.weight, load.loadTypeId],
    [1, 1, '', 1250.5, 2],
  );
  t.same(load.accessories, [10], 'duplicates dropped');
  t.same(
    load.locations.map((stop: any) => [stop.id, stop.locationType, stop.number]),
    [
      ['3', 1, 'PU-1001'],
      [null, 2, null],
      [null, 3, null],
      ['b', 4, '12'],
    ],
  );
  t.equal(load.locations[0].savedLocationId, savedLocationId);
});

t.test('load dates: every rule of section 5 on its own field', async (t) => {
  refuses(
    t,
    schema,
    {
      ...body,
      pickupTimestampStart: '11/20/2026 08:59 AM',
      pickupTimestampEnd: '',
      expiration: '11/20/2026 08:59 AM',
    },
    'pickupTimestampStart',
    "Start can't be before current date and time.",
  );
  accepts(t, schema, {
    ...body,
    pickupTimestampStart: '11/20/2026 09:00 AM',
    pickupTimestampEnd: '',
    expiration: '11/20/2026 09:00 AM',
  });
  refuses(
    t,
    schema,
    { ...body, pickupTimestampEnd: '12/01/2026 07:59 AM' },
    'pickupTimestampEnd',
    "Deadline can't be before pickup start date",
  );
  refuses(
    t,
    schema,
    { ...body, dropOffTimestampStart: '12/01/2026 08:59 AM' },
    'dropOffTimestampStart',
    "Dropoff can't be before pickup start date",
  );
  accepts(t, schema, { ...body, dropOffTimestampStart: '12/01/2026 09:00 AM' });
  refuses(
    t,
    schema,
    { ...body, dropOffTimestampEnd: '12/02/2026 08:00 AM' },
    'dropOffTimestampEnd',
    "Deadline can't be before dropoff start date",
  );
  refuses(
    t,
    schema,
    { ...body, expiration: '12/01/2026 08:01 AM' },
    'expiration',
    "Expiration can't be after pickup start date",
  );
  accepts(t, schema, { ...body, expiration: '12/01/2026 08:00 AM' });
  refuses(
    t,
    schema,
    { ...body, expiration: '11/20/2026 08:00 AM' },
    'expiration',
    "Expiration can't be before current date and time.",
  );
  for (const field of [
    'pickupTimestampStart',
    'pickupTimestampEnd',
    'dropOffTimestampStart',
    'dropOffTimestampEnd',
    'expiration',
  ]) {
    refuses(
      t,
      schema,
      { ...body, [field]: '31/12/2026 10:00 AM' },
      field,
      'Please enter a valid date and time',
    );
  }
  refuses(
    t,
    schema,
    { ...body, pickupTimestampStart: undefined },
    'pickupTimestampStart',
    'Please enter a valid date and time',
  );
  t.same(
    issues(schema, { ...body, pickupTimezone: 'UTC' }),
    ['pickupTimezone -> Please select a valid timezone'],
    'no date error for a time with a bad zone',
  );
});

t.test('timezones are required and must be one of the six', async (t) => {
  for (const field of ['pickupTimezone', 'dropoffTimezone', 'expirationTimezone']) {
    refuses(t, schema, { ...body, [field]: '' }, field, 'Please select a timezone');
    refuses(t, schema, { ...body, [field]: undefined }, field, 'Please select a timezone');
    refuses(
      t,
      schema,
      { ...body, [field]: 'Europe/Paris' },
      field,
      'Please select a valid timezone',
    );
  }
});

t.test('load equipment and load details', async (t) => {
  refuses(
    t,
    schema,
    { ...body, loadEquipment: [] },
    'loadEquipment',
    'Please select at least one load equipment',
  );
  refuses(
    t,
    schema,
    { ...body, loadEquipment: undefined },
    'loadEquipment',
    'Please select at least one load equipment',
  );
  refuses(
    t,
    schema,
    { ...body, loadEquipment: [15, 99] },
    'loadEquipment.1',
    'Please select a valid load equipment',
  );
  refuses(
    t,
    schema,
    { ...body, loadAccessories: [] },
    'loadAccessories',
    'Please enter load accessories',
  );
  refuses(
    t,
    schema,
    { ...body, loadAccessories: [11] },
    'loadAccessories.0',
    'Please select a valid load accessory',
  );
  for (const weight of [undefined, '', 0, -5, 'heavy'])
    refuses(t, schema, { ...body, weight }, 'weight', 'Please enter weight');
  refuses(t, schema, { ...body, commodity: '  ' }, 'commodity', 'Please enter commodity');
  refuses(
    t,
    schema,
    { ...body, refNumber: undefined },
    'refNumber',
    'Please enter reference number',
  );
  refuses(t, schema, { ...body, loadTypeId: 3 }, 'loadTypeId', 'Please select a load type');
});

t.test('each stop', async (t) => {
  refuses(
    t,
    schema,
    withStops({ ...pickup, address: '' }, dropoff),
    'locations.0.address',
    'Please select a valid location.',
  );
  t.same(
    issues(
      schema,
      withStops(pickup, { ...dropoff, address: undefined, latitude: 0, longitude: 0 }),
    ),
    ['locations.1.address -> Please select a valid location.'],
    'a blank place says only that it is required',
  );
  refuses(
    t,
    schema,
    withStops(pickup, { ...dropoff, latitude: 0, longitude: 0 }),
    'locations.1.address',
    'Please select a valid location',
  );
  refuses(
    t,
    schema,
    withStops({ ...pickup, latitude: 91 }, dropoff),
    'locations.0.address',
    'Please select a valid location',
  );
  refuses(
    t,
    schema,
    withStops({ ...pickup, longitude: 'x' }, dropoff),
    'locations.0.address',
    'Please select a valid location',
  );
  refuses(
    t,
    schema,
    withStops({ ...pickup, name: '' }, dropoff),
    'locations.0.name',
    'Please enter the facility name.',
  );
  refuses(
    t,
    schema,
    withStops(pickup, { ...dropoff, name: ' ab ' }),
    'locations.1.name',
    'Please enter the name with more then 3 characters.',
  );
  accepts(t, schema, withStops({ ...pickup, name: 'abc' }, dropoff));
  refuses(
    t,
    schema,
    withStops({ ...pickup, contactPhone: '555-5555' }, dropoff),
    'locations.0.contactPhone',
    PHONE_FORMAT,
  );
  accepts(t, schema, withStops({ ...pickup, contactPhone: null }, dropoff));
  refuses(
    t,
    schema,
    withStops({ ...pickup, locationType: 5 }, dropoff),
    'locations.0.locationType',
    'Please select a valid location type',
  );
  refuses(
    t,
    schema,
    withStops({ ...pickup, savedLocationId: 'nope' }, dropoff),
    'locations.0.savedLocationId',
    'Please select a valid saved location',
  );
});

t.test('one pickup location first and one dropoff location last', async (t) => {
  const message = 'A load needs one pickup location first and one dropoff location last';
  const extra = { ...dropoff, locationType: 2 };
  for (const stops of [
    [],
    [pickup],
    [dropoff, pickup],
    [pickup, pickup, dropoff],
    [pickup, dropoff, dropoff],
    [pickup, dropoff, extra],
    [extra, dropoff],
  ]) {
    refuses(t, schema, withStops(...stops), 'locations', message);
  }
  refuses(t, schema, { ...body, locations: undefined }, 'locations', message);
  accepts(t, schema, withStops(pickup, extra, { ...extra, locationType: 3 }, dropoff));
});

t.test('PUT loads (edit): loadId and each stop id', async (t) => {
  const update = updateLoadBodySchema(NOW);
  const loadId = randomUUID();
  const stopId = randomUUID();
  const load = accepts(t, update, {
    ...body,
    loadId,
    weight: 42000,
    locations: [
      { ...pickup, id: stopId },
      { ...dropoff, id: 2 },
    ],
  });
  t.equal(load.loadId, loadId);
  t.same(
    load.locations.map((stop: any) => stop.id),
    [stopId, '2'],
  );
  t.equal(load.pickupStart, '2026-12-01T14:00:00.000Z');
  refuses(
    t,
    update,
    {
      ...body,
      loadId: 'L-1',
      locations: [
        { ...pickup, id: stopId },
        { ...dropoff, id: 2 },
      ],
    },
    'loadId',
    'Please select a load',
  );
  t.same(
    accepts(t, update, { ...body, loadId }).locations.map((stop: any) => stop.id),
    [null, null],
    'a stop added while editing has no id yet',
  );
  refuses(
    t,
    update,
    {
      ...body,
      loadId,
      expiration: '12/02/2026 08:00 AM',
      locations: [
        { ...pickup, id: 1 },
        { ...dropoff, id: 2 },
      ],
    },
    'expiration',
    "Expiration can't be after pickup start date",
  );
});

t.test('PUT loads {loadId, newExpiration}', async (t) => {
  const loadId = randomUUID();
  const extend = extendExpirationBodySchema(NOW);
  t.ok(isExtendExpirationBody({ loadId, newExpiration: 'x' }));
  t.notOk(isExtendExpirationBody(body));
  t.same(
    accepts(t, extend, {
      loadId,
      newExpiration: '07/15/2027 08:00 AM',
      expirationTimezone: 'America/Phoenix',
    }),
    { loadId, expiration: '2027-07-15T15:00:00.000Z', expirationTimezone: 'America/Phoenix' },
  );
  t.same(accepts(t, extend, { loadId, newExpiration: '2026-12-01T10:00:00Z' }), {
    loadId,
    expiration: '2026-12-01T10:00:00.000Z',
    expirationTimezone: null,
  });
  t.same(
    accepts(t, extendExpirationBodySchema(NOW, 'America/Chicago'), {
      loadId,
      newExpiration: '12/01/2026 10:00 AM',
    }),
    { loadId, expiration: '2026-12-01T16:00:00.000Z', expirationTimezone: 'America/Chicago' },
    "read in the load's zone",
  );
  refuses(
    t,
    extend,
    { loadId, newExpiration: '12/01/2026 10:00 AM' },
    'expirationTimezone',
    'Please select a timezone',
  );
  refuses(
    t,
    extend,
    { loadId, newExpiration: '11/20/2026 08:59 AM', expirationTimezone: 'America/Chicago' },
    'newExpiration',
    "Expiration can't be before current date and time.",
  );
  refuses(
    t,
    extend,
    { loadId, newExpiration: 'soon', expirationTimezone: 'America/Chicago' },
    'newExpiration',
    'Please enter a valid date and time',
  );
  refuses(
    t,
    extend,
    { loadId, newExpiration: '12/01/2026 10:00 AM', expirationTimezone: 'CST' },
    'expirationTimezone',
    'Please select a valid timezone',
  );
  refuses(t, extend, { newExpiration: '2026-12-01T10:00:00Z' }, 'loadId', 'Please select a load');
});

t.test('PUT loads/{id}/status: cancel with a message', async (t) => {
  t.same(accepts(t, cancelLoadBodySchema, { status: 7, message: ' No longer needed ' }), {
    status: 7,
    message: 'No longer needed',
  });
  refuses(t, cancelLoadBodySchema, { status: 7, message: '' }, 'message', 'Please enter a message');
  refuses(t, cancelLoadBodySchema, { status: 7 }, 'message', 'Please enter a message');
  refuses(
    t,
    cancelLoadBodySchema,
    { status: 9, message: 'x' },
    'status',
    'Please select a valid status',
  );
});
