import t from 'tap';
import { figuresOf, placeKey } from './detentionFigures.ts';

t.test('no figures under three measured stops, only that the payer is new', async (t) => {
  const nothing = {
    timeOnSiteMedian: null,
    detentionShare: null,
    approvedOnTimeShare: null,
    status: 'new',
  };
  t.same(figuresOf(undefined), { stops: 0, ...nothing });
  t.same(
    figuresOf({
      stops: 2,
      medianMinutes: 300,
      detentionStops: 2,
      claimsDecided: 2,
      claimsOnTime: 0,
    }),
    { stops: 2, ...nothing },
  );
});

t.test('from the third: minutes rounded, shares to two decimals', async (t) => {
  t.same(
    figuresOf({
      stops: 3,
      medianMinutes: 100.5,
      detentionStops: 1,
      claimsDecided: 3,
      claimsOnTime: 2,
    }),
    {
      stops: 3,
      timeOnSiteMedian: 101,
      detentionShare: 0.33,
      approvedOnTimeShare: 0.67,
      status: 'measured',
    },
  );
  t.equal(
    figuresOf({ stops: 4, medianMinutes: 30, detentionStops: 0, claimsDecided: 0, claimsOnTime: 0 })
      .approvedOnTimeShare,
    null,
    'no claim answered yet: no share',
  );
});

t.test('a place is its address and its coordinates, however typed', async (t) => {
  const dock = {
    address: '1200 W Fulton St, Chicago, IL',
    latitude: 41.88661,
    longitude: -87.65802,
  };
  t.equal(placeKey({ ...dock, address: ' 1200 w fulton st,  Chicago, IL ' }), placeKey(dock));
  t.not(placeKey({ ...dock, latitude: 41.8876 }), placeKey(dock), 'another dock down the street');
  t.not(placeKey({ ...dock, address: '1300 W Fulton St, Chicago, IL' }), placeKey(dock));
});
