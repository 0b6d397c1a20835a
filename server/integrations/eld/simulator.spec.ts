import t from 'tap';
import { distanceMeters, METERS_PER_MILE } from '../../../domain/tours/geo.ts';
import {
  bearingDegrees,
  createSimulatorProvider,
  SIMULATOR_FLEET_SIZE,
  simulatedFleet,
} from './simulator.ts';
import { usCities } from './usCities.ts';

const simulator = createSimulatorProvider();
const credentials = { clientId: 'demo', clientSecret: 'demo-secret' };
const organizationA = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const organizationB = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const start = new Date('2026-12-01T10:00:00Z');
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);
/** The contiguous United States, with a little margin. */
const insideUs = ({ latitude, longitude }: { latitude: number; longitude: number }) =>
  latitude > 24 && latitude < 49.5 && longitude > -125 && longitude < -66;

t.test('credentials: any non-empty pair, except the secret "invalid"', async (t) => {
  t.same(simulator.credentialLabels, { clientId: 'Client id', clientSecret: 'Client secret' });
  t.same(await simulator.verify(credentials, { organizationId: organizationA }), { ok: true });
  const refused = await simulator.verify(
    { clientId: 'demo', clientSecret: 'invalid' },
    { organizationId: organizationA },
  );
  t.equal(refused.ok, false);
  t.match(refused, { refused: /refused the client secret "invalid"/ });
  t.equal(
    (
      await simulator.verify(
        { clientId: ' ', clientSecret: 'x' },
        { organizationId: organizationA },
      )
    ).ok,
    false,
    'a client id is needed',
  );
  await t.rejects(
    simulator.trucks(
      { clientId: 'demo', clientSecret: 'invalid' },
      { organizationId: organizationA },
    ),
    { name: 'CredentialsRefusedError' },
  );
});

t.test(
  'deterministic: the same organization sees the same fleet at the same moment, another a different one',
  async (t) => {
    const first = await simulator.trucks(credentials, {
      organizationId: organizationA,
      now: start,
    });
    const again = await simulator.trucks(
      { clientId: 'other', clientSecret: 'other' },
      { organizationId: organizationA, now: start },
    );
    t.equal(first.length, SIMULATOR_FLEET_SIZE);
    t.same(again, first, 'a function of the organization and the time only (restart-proof)');
    t.same(
      first.map((truck) => truck.name),
      ['T-11', 'T-12', 'T-13', 'T-14', 'T-15', 'T-16', 'T-17', 'T-18'],
    );
    t.equal(new Set(first.map((truck) => truck.id)).size, SIMULATOR_FLEET_SIZE, 'distinct ids');
    const other = await simulator.trucks(credentials, {
      organizationId: organizationB,
      now: start,
    });
    t.notSame(
      other.map((truck) => [truck.latitude, truck.longitude]),
      first.map((truck) => [truck.latitude, truck.longitude]),
      'another organization, another fleet',
    );
    t.ok(
      first.every((truck) => truck.updatedAt === start.toISOString()),
      'reported at the moment asked',
    );
  },
);

t.test(
  'plausible: inside the US, between two real cities, 45 to 65 mph, a few hundred meters every 30 s, heading along the path',
  async (t) => {
    for (const organizationId of [organizationA, organizationB]) {
      const routes = simulatedFleet(organizationId, start);
      for (const { route, name } of routes) {
        t.ok(
          usCities.includes(route.from) && usCities.includes(route.to) && route.from !== route.to,
          `${name}: ${route.from.name} to ${route.to.name}`,
        );
        const miles = distanceMeters(route.from, route.to) / METERS_PER_MILE;
        t.ok(miles >= 200 && miles <= 800, `${name}: ${Math.round(miles)} miles apart`);
      }
      let moving = 0;
      let steps = 0;
      let previous = simulatedFleet(organizationId, start);
      // Three hours, every 30 s.
      for (let second = 30; second <= 3 * 3600; second += 30) {
        const current = simulatedFleet(organizationId, later(second));
        for (let index = 0; index < current.length; index++) {
          const before = previous[index]!;
          const now = current[index]!;
          steps += 1;
          if (!insideUs(now))
            t.fail(`${now.name} left the US at ${now.latitude}, ${now.longitude}`);
          const meters = distanceMeters(before, now);
          if (now.speed === 0 && before.speed === 0) {
            if (meters > 1) t.fail(`${now.name} moved ${meters} m while resting`);
            continue;
          }
          if (now.speed! > 0 && before.speed! > 0) {
            moving += 1;
            if (now.speed! < 45 || now.speed! > 65) t.fail(`${now.name} at ${now.speed} mph`);
            if (meters < 300 || meters > 900)
              t.fail(`${now.name} moved ${Math.round(meters)} m in 30 s`);
            const course = bearingDegrees(before, now);
            const off = Math.abs(((now.heading! - course + 540) % 360) - 180);
            if (off > 20)
              t.fail(`${now.name} heads ${now.heading} but drove ${Math.round(course)}`);
          } else if (meters > 900) {
            t.fail(`${now.name} jumped ${Math.round(meters)} m arriving or leaving`);
          }
        }
        previous = current;
      }
      t.ok(
        moving > steps * 0.5,
        `${organizationId}: trucks mostly on the road (${moving} of ${steps} steps moving)`,
      );
    }
  },
);

t.test('the path bends gently: never far off the straight course', async (t) => {
  const fleet = simulatedFleet(organizationA, start);
  for (let second = 0; second < 24 * 3600; second += 600) {
    for (const truck of simulatedFleet(organizationA, later(second))) {
      const { route } = fleet.find((entry) => entry.id === truck.id)!;
      const straight = distanceMeters(route.from, route.to);
      const detour = distanceMeters(route.from, truck) + distanceMeters(truck, route.to);
      if (detour > straight * 1.03)
        t.fail(
          `${truck.name} is ${Math.round((detour / straight - 1) * 1000) / 10} % off the direct route`,
        );
    }
  }
  t.pass('within 3 % of the direct distance');
});
