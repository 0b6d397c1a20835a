/** T1, T1b, T2, T3: HTTP paths against bare Fastify routes doing the raw SQL of the same work. */
import { sql, type Kysely } from 'kysely';
import { bearer, organization } from '../../server/identity/fixtures.ts';
import { CHICAGO, loadBody } from '../../server/testing/loadBodies.ts';
import { compare, fmt, http, profiled, report } from '../lib.ts';
import { bareServer, type Backend, plainStatement, startBenchApp } from '../setup.ts';
import type { DB } from '../../storage/schema.ts';

export const json = (value: unknown) => JSON.stringify(value);

/** T3: GET /api/health with every plugin and hook, against a bare Fastify hello. */
export async function t3() {
  const bench = await startBenchApp('pglite');
  const bare = await bareServer((app) => app.get('/hello', async () => ({ status: 'ok' })));
  try {
    const { baseline, ours } = await compare(
      () => http({ url: `${bare.url}/hello` }),
      () => http({ url: `${bench.url}/api/health` }),
    );
    report(
      'T3',
      'health',
      ours.rps / baseline.rps,
      0.8,
      `ours ${fmt(ours.rps)} req/s p99 ${ours.p99} ms; bare hello ${fmt(baseline.rps)} req/s p99 ${baseline.p99} ms`,
    );
  } finally {
    await bare.close();
    await bench.close();
  }
}

/** T1 (PostgreSQL) and T1b (PGlite): POST /api/loads against a route doing one raw INSERT of the same body. */
export async function t1(backend: Backend) {
  const bench = await startBenchApp(backend);
  const { app, platform, db } = bench;
  await sql`CREATE TABLE bench_raw_loads (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  const shipper = await organization(app, platform, 'Shipper');
  const bare = await bareServer((raw) =>
    raw.post('/loads', async (request, reply) => {
      const row = await sql<{
        id: string;
      }>`${plainStatement}INSERT INTO bench_raw_loads (body) VALUES (${JSON.stringify(request.body)}::jsonb) RETURNING id`.execute(
        db,
      );
      return reply.code(201).send({ id: row.rows[0]!.id });
    }),
  );
  const body = json(loadBody());
  const id = backend === 'postgres' ? 'T1' : 'T1b';
  try {
    const { baseline, ours } = await compare(
      () => http({ url: `${bare.url}/loads`, method: 'POST', body }),
      () =>
        profiled(id, () =>
          http({
            url: `${bench.url}/api/loads`,
            method: 'POST',
            body,
            headers: bearer(shipper.token),
          }),
        ),
    );
    const failures = ours.errors + ours.non2xx;
    report(
      id,
      `post-load (${backend})`,
      ours.rps / baseline.rps,
      0.5,
      `ours ${fmt(ours.rps)} req/s p99 ${ours.p99} ms (non-2xx ${failures}); raw insert ${fmt(baseline.rps)} req/s p99 ${baseline.p99} ms; p99 ratio ${(ours.p99 / Math.max(1, baseline.p99)).toFixed(2)} (target <= 2)`,
      ours.rps / baseline.rps >= 0.5 && failures === 0,
    );
  } finally {
    await bare.close();
    await bench.close();
  }
}

/**
 * T2: a filtered, sorted page of the marketplace over 100k loads (seeded straight into the read
 * model) and GET /api/loads/{id}, against raw SQL returning the same rows.
 */
export async function t2(backend: Backend, count: number) {
  const bench = await startBenchApp(backend);
  const { app, platform, db } = bench;
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  await seedLoads(db, shipper.organizationId!, count);
  const posted = await app.inject({
    method: 'POST',
    url: '/api/loads',
    headers: bearer(shipper.token),
    payload: loadBody(),
  });
  const loadId = posted.json().id as string;
  const filters = [
    { name: 'origin', value: [{ ...CHICAGO, radius: 200 }] },
    { name: 'equipment', value: [5, 8, 15] },
  ];
  const query = new URLSearchParams({
    page: '1',
    pageSize: '25',
    order: json({ column: 'pickupTime', direction: 'ASC' }),
    filters: json(filters),
  });
  // The same rows as ours: open loads of active shippers within 200 miles (box, then great circle),
  // with the equipment, and the carrier's own offer on each; without the count of all matches.
  const miles = sql`(2 * 3958.7613 * asin(least(1, sqrt(power(sin(radians(l.pickup_latitude - ${CHICAGO.latitude}::float8) / 2), 2)
    + cos(radians(${CHICAGO.latitude}::float8)) * cos(radians(l.pickup_latitude)) * power(sin(radians(l.pickup_longitude - ${CHICAGO.longitude}::float8) / 2), 2)))))`;
  const rawPage = async () =>
    sql`${plainStatement}
    SELECT l.*, o.name AS shipper_name, p.id AS my_proposal_id, p.status AS my_proposal_status, p.price AS my_proposal_price, ${miles} AS origin_miles
    FROM loads_view l JOIN organizations_view o ON o.id = l.shipper_organization_id
      LEFT JOIN proposals_view p ON p.load_id = l.id AND p.carrier_organization_id = ${carrier.organizationId}
    WHERE l.status = 4 AND l.expiration > now() AND o.status = 2
      AND l.pickup_latitude BETWEEN ${CHICAGO.latitude - 2.9}::float8 AND ${CHICAGO.latitude + 2.9}::float8
      AND l.pickup_longitude BETWEEN ${CHICAGO.longitude - 3.9}::float8 AND ${CHICAGO.longitude + 3.9}::float8
      AND ${miles} <= 200
      AND l.equipment && '{5,8,15}'::integer[]
    ORDER BY l.pickup_start ASC, l.id LIMIT 25`.execute(db);
  const bare = await bareServer((raw) => {
    raw.get('/page', async () => (await rawPage()).rows);
    raw.get(
      '/load',
      async () =>
        (await sql`${plainStatement}SELECT * FROM loads_view WHERE id = ${loadId}`.execute(db))
          .rows[0],
    );
  });
  try {
    const sample = await app.inject({
      method: 'GET',
      url: `/api/loads/carrier?${query}`,
      headers: bearer(carrier.token),
    });
    const page = await compare(
      () => http({ url: `${bare.url}/page` }),
      () =>
        http({ url: `${bench.url}/api/loads/carrier?${query}`, headers: bearer(carrier.token) }),
    );
    report(
      'T2',
      `marketplace page over ${fmt(count)} loads (${backend})`,
      page.ours.rps / page.baseline.rps,
      0.7,
      `ours ${fmt(page.ours.rps)} req/s p99 ${page.ours.p99} ms (${sample.json().total} matches); raw SQL ${fmt(page.baseline.rps)} req/s p99 ${page.baseline.p99} ms; p99 < 50 ms: ${page.ours.p99 < 50 ? 'yes' : 'no'}`,
    );
    const one = await compare(
      () => http({ url: `${bare.url}/load` }),
      () => http({ url: `${bench.url}/api/loads/${loadId}`, headers: bearer(shipper.token) }),
    );
    report(
      'T2b',
      `one load (${backend})`,
      one.ours.rps / one.baseline.rps,
      0.7,
      `ours ${fmt(one.ours.rps)} req/s p99 ${one.ours.p99} ms; raw SQL ${fmt(one.baseline.rps)} req/s p99 ${one.baseline.p99} ms`,
    );
  } finally {
    await bare.close();
    await bench.close();
  }
}

/** Inserts `count` open loads around the US into the read model in one statement. */
async function seedLoads(db: Kysely<DB>, organizationId: string, count: number) {
  await sql`
    INSERT INTO loads_view (id, guid, shipper_organization_id, posted_by, status, pickup_start, pickup_timezone, dropoff_start, dropoff_timezone,
      expiration, expiration_timezone, load_type_id, equipment, accessories, weight, commodity, ref_number, description,
      pickup_address, pickup_latitude, pickup_longitude, dropoff_address, dropoff_latitude, dropoff_longitude, distance_miles, stops, created_at, updated_at)
    SELECT gen_random_uuid(), 'B-' || lpad(n::text, 7, '0'), ${organizationId}, ${organizationId}, 4,
      now() + (n % 240 || ' hours')::interval + interval '2 days', 'America/Chicago', now() + (n % 240 || ' hours')::interval + interval '3 days', 'America/Chicago',
      now() + interval '1 day', 'America/Chicago', 1 + n % 2, ARRAY[1 + n % 51, 1 + (n * 7) % 51], ARRAY[1 + n % 9], 10000 + n % 30000, 'Freight', 'R' || n, '',
      'Somewhere', 25 + (n * 37 % 2300) / 100.0, -124 + (n * 53 % 5600) / 100.0, 'Elsewhere', 25 + (n * 41 % 2300) / 100.0, -124 + (n * 59 % 5600) / 100.0, 500, '[]',
      now(), now()
    FROM generate_series(1, ${count}) AS n`.execute(db);
  await sql`ANALYZE loads_view`.execute(db);
}
