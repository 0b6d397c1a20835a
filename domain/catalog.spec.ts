import t from 'tap';
import {
  accessories,
  asOptions,
  buildCatalog,
  catalog,
  chipColors,
  driverTeams,
  equipmentGroups,
  findById,
  genericStatuses,
  hasId,
  idsOf,
  isTimeZoneId,
  limits,
  loadTypes,
  locationTypeHasNumber,
  locationTypes,
  nameById,
  pageSizes,
  ratingCriteria,
  ratingCriteriaFor,
  ratingCriteriaRatedBy,
  roles,
  searchRadii,
  shipmentStatusByKey,
  shipmentStatuses,
  statusColorByName,
  tableActions,
  timeZoneIds,
  timeZones,
  timeZonesAt,
  tourStatuses,
  trailerTypes,
  trailerTypesInGroup,
  truckTypes,
  userStatuses,
  valueBands,
  zoneOffset,
  zoneOffsetMinutes,
  zoneShortName,
  BID_SUBMITTED,
  GenericStatus,
  TableAction,
  TourStatus,
  type Entry,
} from './catalog.ts';

const pairs = (list: readonly Entry[]) => list.map(({ id, name }) => [id, name]);

t.test('small enumerations carry the specification ids and names', async (t) => {
  t.same(pairs(truckTypes), [
    [1, 'Cargo Van'],
    [2, 'Small Straight'],
    [3, 'Large Straight'],
    [4, 'Tractor'],
    [5, 'Flatbed'],
  ]);
  t.same(pairs(driverTeams), [
    [1, 'Single Driver'],
    [2, 'Two Drivers'],
  ]);
  t.same(pairs(loadTypes), [
    [1, 'FTL'],
    [2, 'LTL'],
  ]);
  t.same(pairs(locationTypes), [
    [1, 'Pickup Location'],
    [2, 'Extra Pickup Stop'],
    [3, 'Extra Dropoff Stop'],
    [4, 'Dropoff Location'],
  ]);
  t.same(pairs(accessories), [
    [1, 'Pallet Jack'],
    [2, 'Driver Assist'],
    [3, 'In Bond'],
    [4, 'Liftgate'],
    [5, 'Protective Gear'],
    [6, 'Twic Required'],
    [7, 'Food Grade Trailer'],
    [8, 'Tarping'],
    [9, 'PipeStakes'],
    [10, 'NONE'],
  ]);
  t.same(pairs(equipmentGroups), [
    [1, 'FlatBed'],
    [2, 'Dry Van'],
    [3, 'Reefer'],
  ]);
  t.same(pairs(valueBands), [
    [1, '< $100,000.00'],
    [2, '> $100,000.00'],
  ]);
  t.same(pairs(roles), [
    [1, 'Superadmin'],
    [2, 'Shipper'],
    [3, 'Carrier'],
    [4, 'Driver'],
  ]);
  t.same(pairs(tableActions), [
    [1, 'View'],
    [2, 'Edit'],
    [3, 'Cancel'],
    [4, 'Offers'],
    [5, 'Make offer'],
    [6, 'Track'],
    [7, 'Chat'],
    [8, 'Rate'],
    [9, 'Assign driver'],
    [10, 'Upload contract'],
    [11, 'Extend expiration'],
    [12, 'History'],
    [13, 'Activate'],
    [14, 'Block'],
    [15, 'Withdraw'],
    [16, 'Confirm delivery'],
  ]);
  t.equal(TableAction.ConfirmDelivery, 16);
  t.same([...searchRadii], [50, 100, 150, 200]);
  t.same([...pageSizes], [5, 10, 25]);
  t.equal(locationTypeHasNumber(1), true);
  t.equal(locationTypeHasNumber(4), true);
  t.equal(locationTypeHasNumber(2), false);
  t.equal(locationTypeHasNumber(3), false);
});

t.test('limits are the specification constants', async (t) => {
  t.equal(limits.documentMaxBytes, 5242880);
  t.equal(limits.passwordMinLength, 8);
  t.equal(limits.facilityNameMinLength, 3);
  t.equal(limits.pinLength, 6);
  t.equal(limits.ratingStep, 0.5);
});

t.test(
  'trailer types: 51 distinct ids and names, the named ones verbatim, each in a known group',
  async (t) => {
    t.equal(trailerTypes.length, 51);
    t.same(
      idsOf(trailerTypes),
      Array.from({ length: 51 }, (_, index) => index + 1),
    );
    t.equal(
      new Set(trailerTypes.map((trailer) => trailer.name.toLowerCase())).size,
      51,
      'names are distinct',
    );
    const named: [number, string, number | null][] = [
      [5, '48 Foot Dry Van', 2],
      [8, '48 ft Reefer', 3],
      [15, '53 ft Reefer', 3],
      [24, 'Conestoga', 1],
      [32, 'Flat Bed', 1],
      [43, 'Step Deck', 1],
      [48, 'Tanker', null],
    ];
    for (const [id, name, groupId] of named) {
      t.equal(nameById(trailerTypes, id), name);
      t.equal(findById(trailerTypes, id)?.equipmentGroupId, groupId, `${name} group`);
    }
    for (const trailer of trailerTypes) {
      t.ok(trailer.name.trim().length > 0 && trailer.name === trailer.name.trim());
      t.ok(
        trailer.equipmentGroupId === null || [1, 2, 3].includes(trailer.equipmentGroupId),
        `${trailer.name} group`,
      );
    }
    const grouped = [1, 2, 3, null] as const;
    t.equal(
      grouped.reduce((sum, group) => sum + trailerTypesInGroup(group).length, 0),
      51,
    );
    t.ok(
      trailerTypesInGroup(3).every((trailer) => /reefer/i.test(trailer.name)),
      'every reefer says so',
    );
  },
);

t.test('lookup helpers', async (t) => {
  t.equal(nameById(truckTypes, 4), 'Tractor');
  t.equal(nameById(truckTypes, 99), undefined);
  t.equal(findById(truckTypes, null), undefined);
  t.equal(hasId(accessories, 10), true);
  t.equal(hasId(accessories, 11), false);
  t.equal(hasId(accessories, '1'), false);
  t.same(asOptions(valueBands), [
    { id: 1, name: '< $100,000.00' },
    { id: 2, name: '> $100,000.00' },
  ]);
});

t.test('generic, user and tour statuses carry exact names', async (t) => {
  t.same(
    genericStatuses.map((status) => status.name),
    [
      'Pending',
      'Active',
      'Blocked',
      'Created',
      'Accepted',
      'Signed',
      'Canceled',
      'Paused',
      'Completed',
      'Submitted Proposal',
      'Pending Acceptance',
      'Declined',
      'Pending Confirmation',
      'Confirmed',
    ],
  );
  t.same(
    idsOf(genericStatuses),
    Array.from({ length: 14 }, (_, index) => index + 1),
  );
  t.same(pairs(userStatuses), [
    [2, 'Active'],
    [3, 'Blocked'],
  ]);
  t.same(pairs(tourStatuses), [
    [1, 'Created'],
    [2, 'Ready for pickup'],
    [3, 'Dispatched'],
    [4, 'Delivered'],
    [5, 'Canceled'],
    [6, 'Confirmed'],
    [7, 'Bid Accepted'],
    [8, 'Carrier Confirmed'],
    [9, 'In Transit'],
    [10, 'Pending Delivery Confirmation'],
    [11, 'Delivered'],
  ]);
  t.equal(GenericStatus.SubmittedProposal, 10);
  t.equal(GenericStatus.Confirmed, 14);
  t.equal(TourStatus.InTransit, 9);
  t.equal(TourStatus.PendingDeliveryConfirmation, 10);
  for (const [key, id] of Object.entries(GenericStatus)) {
    t.equal(findById(genericStatuses, id)?.name.replace(/ /g, ''), key, `GenericStatus.${key}`);
  }
});

t.test('status chips follow the specification colours', async (t) => {
  const tourColor = (id: number) => findById(tourStatuses, id)?.color.name;
  t.equal(tourColor(TourStatus.Canceled), 'red');
  for (const id of [4, 6, 7, 8, 11]) t.equal(tourColor(id), 'green', `tour ${id}`);
  for (const id of [9, 2, 3]) t.equal(tourColor(id), 'blue', `tour ${id}`);
  t.equal(tourColor(TourStatus.PendingDeliveryConfirmation), 'orange');
  t.equal(tourColor(TourStatus.Created), 'purple');
  t.equal(BID_SUBMITTED.color.name, 'orange');
  t.equal(BID_SUBMITTED.id, null);

  const byName: [string, string][] = [
    ['Canceled', 'red'],
    ['Delivered', 'green'],
    ['Confirmed', 'green'],
    ['Bid Accepted', 'green'],
    ['Carrier Confirmed', 'green'],
    ['In Transit', 'blue'],
    ['Ready for pickup', 'blue'],
    ['Dispatched', 'blue'],
    ['Pending Delivery Confirmation', 'orange'],
    ['Bid Submitted', 'orange'],
    ['Created', 'purple'],
    ['Pending', 'amber'],
    ['Active', 'green'],
    ['Blocked', 'red'],
    ['Paused', 'grey'],
    ['Declined', 'red'],
    ['in transit', 'blue'],
    ['Something else', 'grey'],
  ];
  for (const [name, color] of byName) t.equal(statusColorByName(name).name, color, name);

  for (const status of [...genericStatuses, ...tourStatuses, ...userStatuses, BID_SUBMITTED]) {
    t.same(status.color, chipColors[status.color.name], `${status.name} uses the palette`);
  }
  for (const color of Object.values(chipColors)) t.match(color.hex, /^#[0-9A-F]{6}$/);
  // A generic status and a tour status with the same name share a colour.
  for (const generic of genericStatuses) {
    const tour = tourStatuses.find((status) => status.name === generic.name);
    if (tour) t.equal(generic.color.name, tour.color.name, generic.name);
  }
});

t.test(
  'shipment statuses: tour statuses plus Bid Submitted, in the order a shipment moves',
  async (t) => {
    t.same(
      shipmentStatuses.map((status) => status.name),
      [
        'Created',
        'Bid Submitted',
        'Bid Accepted',
        'Carrier Confirmed',
        'Ready for pickup',
        'Dispatched',
        'In Transit',
        'Pending Delivery Confirmation',
        'Delivered',
        'Canceled',
        'Confirmed',
        'Delivered',
      ],
    );
    t.equal(new Set(shipmentStatuses.map((status) => status.key)).size, 12);
    t.same(
      shipmentStatuses
        .filter((status) => status.id !== null)
        .map((status) => status.id)
        .sort((a, b) => a! - b!),
      idsOf(tourStatuses),
    );
    t.equal(shipmentStatusByKey('bidSubmitted').id, null);
    t.equal(shipmentStatusByKey('inTransit').id, 9);
  },
);

t.test('rating criteria by side', async (t) => {
  t.same(
    ratingCriteriaFor('carrier').map(({ id, name, ratedBy }) => [id, name, ratedBy]),
    [
      [1, 'Punctuality', 'shipper'],
      [2, 'Communication', 'shipper'],
      [3, 'Cargo condition', 'shipper'],
      [4, 'Professionalism', 'shipper'],
    ],
  );
  t.same(
    ratingCriteriaFor('shipper').map(({ id, name, ratedBy }) => [id, name, ratedBy]),
    [
      [5, 'Loading speed', 'carrier'],
      [6, 'Communication', 'carrier'],
      [7, 'Accuracy of load details', 'carrier'],
      [8, 'Payment reliability', 'carrier'],
    ],
  );
  t.same(ratingCriteriaRatedBy('shipper'), ratingCriteriaFor('carrier'));
  t.equal(ratingCriteria.length, 8);
});

t.test(
  'time zones: six IANA zones with abbreviation and offset for a winter and a summer instant',
  async (t) => {
    t.same(
      [...timeZoneIds],
      [
        'America/New_York',
        'America/Chicago',
        'America/Los_Angeles',
        'America/Phoenix',
        'America/Anchorage',
        'Pacific/Honolulu',
      ],
    );
    t.same(
      timeZones.map((zone) => zone.id),
      [...timeZoneIds],
    );
    for (const zone of timeZones) t.ok(zone.label.length > 0);
    const winter = '2026-01-15T18:00:00Z';
    const summer = '2026-07-15T18:00:00.000Z';
    const expected: [string, string, string, string, string][] = [
      ['America/New_York', 'EST', '-05:00', 'EDT', '-04:00'],
      ['America/Chicago', 'CST', '-06:00', 'CDT', '-05:00'],
      ['America/Los_Angeles', 'PST', '-08:00', 'PDT', '-07:00'],
      ['America/Phoenix', 'MST', '-07:00', 'MST', '-07:00'],
      ['America/Anchorage', 'AKST', '-09:00', 'AKDT', '-08:00'],
      ['Pacific/Honolulu', 'HST', '-10:00', 'HST', '-10:00'],
    ];
    for (const [zone, winterName, winterOffset, summerName, summerOffset] of expected) {
      t.equal(zoneShortName(zone, winter), winterName, `${zone} winter name`);
      t.equal(zoneOffset(zone, winter), winterOffset, `${zone} winter offset`);
      t.equal(zoneShortName(zone, summer), summerName, `${zone} summer name`);
      t.equal(zoneOffset(zone, summer), summerOffset, `${zone} summer offset`);
    }
    t.equal(zoneOffsetMinutes('America/Chicago', winter), -360);
    t.same(
      timeZonesAt(summer).map(({ id, shortName, offset }) => [id, shortName, offset]),
      expected.map(([zone, , , name, offset]) => [zone, name, offset]),
    );
  },
);

t.test('time zones: daylight saving switches at the instant, and odd inputs', async (t) => {
  // 2026-03-08 02:00 local: Chicago springs forward at 08:00 UTC.
  t.equal(zoneShortName('America/Chicago', '2026-03-08T07:59:59Z'), 'CST');
  t.equal(zoneShortName('America/Chicago', '2026-03-08T08:00:00Z'), 'CDT');
  t.equal(zoneOffset('America/Chicago', '2026-03-08T08:00:00Z'), '-05:00');
  t.equal(
    zoneOffset('America/Chicago', '2026-01-15T12:00:00-06:00'),
    '-06:00',
    'an offset designator is accepted',
  );
  t.equal(zoneOffset('UTC', '2026-01-15T12:00:00Z'), '+00:00');
  t.equal(zoneOffset('Asia/Kolkata', '2026-01-15T12:00:00Z'), '+05:30');
  t.throws(
    () => zoneOffset('America/Chicago', '2026-01-15T12:00:00'),
    RangeError,
    'a time without a zone is refused',
  );
  t.throws(() => zoneShortName('America/Chicago', 'yesterday'), RangeError);
  t.throws(() => zoneShortName('Mars/Olympus', '2026-01-15T12:00:00Z'), RangeError);
  t.equal(isTimeZoneId('America/Chicago'), true);
  t.equal(isTimeZoneId('Europe/Paris'), false);
  t.equal(isTimeZoneId(undefined), false);
});

t.test('buildCatalog is the GET catalog answer, and JSON-safe', async (t) => {
  const nowIso = '2026-01-15T18:00:00Z';
  const answer = buildCatalog(nowIso);
  t.equal(answer.asOf, nowIso);
  t.same(
    answer.timeZones.find((zone) => zone.id === 'America/Chicago'),
    {
      id: 'America/Chicago',
      name: 'Chicago',
      label: 'Central Time (Chicago)',
      shortName: 'CST',
      offset: '-06:00',
    },
  );
  for (const key of [
    'truckTypes',
    'driverTeams',
    'trailerTypes',
    'equipmentGroups',
    'loadTypes',
    'locationTypes',
    'accessories',
    'valueBands',
    'genericStatuses',
    'userStatuses',
    'tourStatuses',
    'shipmentStatuses',
    'timeZones',
    'ratingCriteria',
    'tableActions',
    'searchRadii',
    'pageSizes',
    'roles',
    'permissions',
    'limits',
  ] as const) {
    t.ok(key in answer, key);
  }
  t.equal(answer.permissions.length, 53);
  t.same(JSON.parse(JSON.stringify(answer)), answer, 'survives JSON');
  t.equal(catalog.trailerTypes, trailerTypes);
  t.equal(buildCatalog('2026-07-15T18:00:00Z').timeZones[0].shortName, 'EDT');
});
