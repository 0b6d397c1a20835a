import t from 'tap';
import { averageRatings, isRatingValue, ratingErrors, ratingsMap } from './ratings.ts';

t.test('isRatingValue: 0.5 to 5 in steps of 0.5', async (t) => {
  for (const value of [0.5, 1, 2.5, 4.5, 5]) t.ok(isRatingValue(value), `${value} is a rating`);
  for (const value of [0, 0.25, 5.5, 3.3, -0.5, Number.NaN, Infinity, '4'])
    t.notOk(isRatingValue(value), `${String(value)} is not`);
});

t.test('ratingErrors', async (t) => {
  const byShipper = [
    { criteria: 4, rating: 5 },
    { criteria: 3, rating: 4 },
    { criteria: 2, rating: 3 },
    { criteria: 1, rating: 2 },
  ];
  t.same(
    ratingErrors('shipper', byShipper),
    [],
    'the shipper rates the carrier criteria 1 to 4, in any order',
  );
  t.same(
    ratingErrors('carrier', byShipper),
    [{ path: 'ratings', message: 'Rate every criterion once' }],
    'the carrier rates 5 to 8',
  );
  t.same(ratingErrors('shipper', [...byShipper.slice(0, 3), { criteria: 1, rating: 0 }]), [
    { path: 'ratings.3.rating', message: 'Ratings go from 0.5 to 5 in steps of 0.5' },
  ]);
  t.same(
    ratingErrors('shipper', [{ criteria: 1, rating: 6 }]),
    [
      { path: 'ratings', message: 'Rate every criterion once' },
      { path: 'ratings.0.rating', message: 'Ratings go from 0.5 to 5 in steps of 0.5' },
    ],
    'both faults are reported',
  );
});

t.test('averageRatings', async (t) => {
  t.same(averageRatings([]), {}, 'no rated tours: no ratings');
  t.same(averageRatings([[]]), {});
  const tours = [
    [
      { criteria: 1, rating: 5 },
      { criteria: 2, rating: 4 },
      { criteria: 3, rating: 4.5 },
      { criteria: 4, rating: 3 },
    ],
    [
      { criteria: 1, rating: 4 },
      { criteria: 2, rating: 4 },
      { criteria: 3, rating: 3 },
      { criteria: 4, rating: 3.5 },
    ],
    [
      { criteria: 1, rating: 4 },
      { criteria: 2, rating: 3.5 },
      { criteria: 3, rating: 0.5 },
      { criteria: 4, rating: 3 },
    ],
  ];
  const averages = averageRatings(tours);
  t.same(
    averages,
    { Punctuality: 4.33, Communication: 3.83, 'Cargo condition': 2.67, Professionalism: 3.17 },
    'means rounded to two decimals',
  );
  t.same(
    Object.keys(averages),
    ['Punctuality', 'Communication', 'Cargo condition', 'Professionalism'],
    'in the catalog order',
  );
  t.same(
    averageRatings([
      [{ criteria: 8, rating: 2.5 }],
      [
        { criteria: 8, rating: 5 },
        { criteria: 99, rating: 1 },
      ],
    ]),
    { 'Payment reliability': 3.75 },
    'a criterion is averaged over the tours that rated it; unknown ids are ignored',
  );
  t.same(
    averageRatings([
      [{ criteria: 1, rating: 1 }],
      [{ criteria: 1, rating: 1 }],
      [{ criteria: 1, rating: 1.5 }],
    ]),
    { Punctuality: 1.17 },
    '1.1666… rounds up',
  );
  t.same(
    averageRatings([
      [{ criteria: 1, rating: 1 }],
      [{ criteria: 1, rating: 1.5 }],
      [{ criteria: 1, rating: 1.5 }],
      [{ criteria: 1, rating: 1.5 }],
      [{ criteria: 1, rating: 1.5 }],
      [{ criteria: 1, rating: 1.5 }],
      [{ criteria: 1, rating: 1.5 }],
      [{ criteria: 1, rating: 1.5 }],
    ]),
    { Punctuality: 1.44 },
    '1.4375 rounds to 1.44',
  );
});

t.test("ratingsMap: one tour's ratings by name", async (t) => {
  t.same(
    ratingsMap([
      { criteria: 5, rating: 4.5 },
      { criteria: 6, rating: 3 },
    ]),
    { 'Loading speed': 4.5, Communication: 3 },
  );
  t.same(ratingsMap([]), {});
});
