/** T8: driver positions in batches, against a raw multi-row INSERT of the same rows. */
import { sql } from 'kysely';
import { bearer, member, organization } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { compare, fmt, http, report } from '../lib.ts';
import { bareServer, type Backend, plainStatement, startBenchApp } from '../setup.ts';
import { json } from './http.ts';

/** T8: driver positions in batches of 50 against a raw multi-row INSERT of the same rows. */
export async function t8(backend: Backend) {
  const bench = await startBenchApp(backend);
  // The baseline's own table, outside the product's schema.
  const db = bench.db.withTables<{
    bench_raw_positions: {
      tour_id: string;
      latitude: number;
      longitude: number;
      speed: number;
      recorded_at: string;
    };
  }>();
  await sql`CREATE TABLE bench_raw_positions (tour_id uuid, latitude float8, longitude float8, speed float8, recorded_at timestamptz)`.execute(
    db,
  );
  const tourId = await dispatchedTour(bench);
  const driverToken = tourDriverToken;
  let tick = 0;
  const batch = () =>
    json(
      Array.from({ length: 50 }, () => {
        tick++;
        return {
          latitude: 40 + (tick % 1000) / 10_000,
          longitude: -88 - (tick % 1000) / 10_000,
          speed: 55,
          heading: 90,
          recordedAt: new Date(Date.now() - 60_000 + (tick % 60_000)).toISOString(),
        };
      }),
    );
  const bare = await bareServer((raw) =>
    raw.post('/positions', async (request, reply) => {
      const rows = (
        request.body as { latitude: number; longitude: number; speed: number; recordedAt: string }[]
      ).map((p) => ({
        tour_id: tourId,
        latitude: p.latitude,
        longitude: p.longitude,
        speed: p.speed,
        recorded_at: p.recordedAt,
      }));
      await sql`${plainStatement}INSERT INTO bench_raw_positions (tour_id, latitude, longitude, speed, recorded_at)
      VALUES ${sql.join(rows.map((row) => sql`(${row.tour_id}, ${row.latitude}, ${row.longitude}, ${row.speed}, ${row.recorded_at})`))}`.execute(
        db,
      );
      return reply.code(202).send({ accepted: rows.length });
    }),
  );
  try {
    const { baseline, ours } = await compare(
      () => http({ url: `${bare.url}/positions`, method: 'POST', body: batch, connections: 8 }),
      () =>
        http({
          url: `${bench.url}/api/tours/${tourId}/positions`,
          method: 'POST',
          body: batch,
          headers: bearer(driverToken),
          connections: 8,
        }),
    );
    const failures = ours.errors + ours.non2xx;
    report(
      'T8',
      `position ingest, batches of 50 (${backend})`,
      ours.rps / baseline.rps,
      0.3,
      `ours ${fmt(ours.rps * 50)} positions/s p99 ${ours.p99} ms (non-2xx ${failures}); raw multi-row insert ${fmt(baseline.rps * 50)} positions/s p99 ${baseline.p99} ms; >= 10k/s: ${ours.rps * 50 >= 10_000 ? 'yes' : 'no'}`,
      ours.rps / baseline.rps >= 0.3 && ours.rps * 50 >= 10_000 && failures === 0,
    );
  } finally {
    await bare.close();
    await bench.close();
  }
}

let tourDriverToken = '';
/** A tour with an assigned driver, Dispatched, through the real API. */
async function dispatchedTour({
  app,
  platform,
}: {
  app: Parameters<typeof organization>[0];
  platform: Parameters<typeof organization>[1];
}): Promise<string> {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, 4);
  const inject = (method: 'POST' | 'PUT', url: string, token: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload ? { payload: payload as object } : {}),
    });
  const { id: loadId } = (await inject('POST', '/api/loads', shipper.token, loadBody())).json();
  const { id: offerId } = (
    await inject('POST', `/api/proposal/${loadId}`, carrier.token, { price: 1000 })
  ).json();
  await inject('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 });
  const load = await platform.marketplace.loadLoad(loadId);
  await platform.marketplace.uploadContract(
    {
      actor: {
        userId: carrier.userId,
        organizationId: carrier.organizationId,
        roleId: 3,
        permissions: [],
        sessionId: 'bench',
      },
      requestId: 'bench',
    },
    loadId,
    crypto.randomUUID(),
    new Date().toISOString(),
  );
  const tourId = load!.tourId!;
  await inject('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token);
  await inject('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 3 });
  tourDriverToken = driver.token;
  return tourId;
}
