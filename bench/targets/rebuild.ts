/**
 * T6: every read model rebuilt over a log of real shipments cloned to 300k events, against
 * set-based INSERT ... SELECT catch-up of the same events.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { allProjections } from '../../projections/index.ts';
import { ProjectionRunner, resetProjection } from '../../projections/runner.ts';
import type { EventStore, RecordedEvent } from '../../server/eventstore/eventStore.ts';
import { bearer, member, organization } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import type { DB } from '../../storage/schema.ts';
import { fmt, median, profiled, quick, report } from '../lib.ts';
import { type Backend, type BenchApp, startBenchApp } from '../setup.ts';

/**
 * T6: every read model rebuilt from position 0 over a log of at least 300k events (60k quick): one
 * shipment made through the API (three offers, acceptance, contract, driver, dispatch, 100
 * positions, chat), cloned with fresh ids. Baseline: set-based INSERT ... SELECT of the same events
 * into copies of the main tables (loads, offers, positions, chat).
 */
export async function t6(backend: Backend) {
  const target = quick ? 60_000 : 300_000;
  const bench = await startBenchApp(backend);
  try {
    const { db, platform } = bench;
    const cloned = await seedLog(bench, target);
    // Only the rebuilding runner works on the log from here: the server's own background work stops.
    await platform.laneAlerts?.stop();
    await platform.eld.stop();
    await platform.loadExpiry?.stop();
    await platform.runner.stop();
    const {
      rows: [{ n: events }],
    } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events`.execute(db);
    const runs = quick ? 3 : 1;
    const ours: number[] = [];
    const raw: number[] = [];
    for (let run = 0; run < runs; run++) {
      raw.push(await rawCatchUp(db));
      ours.push(await profiled('T6', () => rebuild(bench.platform.database, platform.store)));
    }
    const oursSeconds = median(ours);
    const rawSeconds = median(raw);
    const perSecond = events / oursSeconds;
    report(
      'T6',
      `rebuild every read model over ${fmt(events)} events (${backend})`,
      rawSeconds / oursSeconds,
      0.3,
      `ours ${fmt(oursSeconds, 1)} s (${fmt(perSecond)} events/s, 1M events in ${fmt(1_000_000 / perSecond)} s; target under 30 s); set-based catch-up of loads, offers, positions and chat ${fmt(rawSeconds, 1)} s; ${cloned} cloned shipments${runs === 1 ? '; one run each at this size' : ''}`,
      rawSeconds / oursSeconds >= 0.3 && 1_000_000 / perSecond < 30,
    );
  } finally {
    await bench.close();
  }
}

/** Stops the server's projections, resets them all and times a fresh runner catching up to the head. */
async function rebuild(
  database: BenchApp['platform']['database'],
  store: EventStore,
): Promise<number> {
  const head = await store.head();
  const started = performance.now();
  await database.db.transaction().execute(async (trx) => {
    for (const projection of allProjections) await resetProjection(trx, projection);
  });
  const runner = new ProjectionRunner(database, store, allProjections, { pageSize: 2000 });
  await runner.start();
  const done = await runner.waitFor(
    allProjections.map((projection) => projection.name),
    head,
    600_000,
  );
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  if (!done) throw new Error('the rebuild did not reach the head in 10 minutes');
  return seconds;
}

/** The set-based baseline: one INSERT ... SELECT per table over the whole log, in one transaction. */
async function rawCatchUp(db: Kysely<DB>): Promise<number> {
  await sql`DROP TABLE IF EXISTS raw_loads, raw_proposals, raw_positions, raw_chat`.execute(db);
  await sql`CREATE TABLE raw_loads (LIKE loads_view INCLUDING ALL)`.execute(db);
  await sql`CREATE TABLE raw_proposals (LIKE proposals_view INCLUDING ALL)`.execute(db);
  await sql`CREATE TABLE raw_positions (LIKE tour_positions_view INCLUDING ALL)`.execute(db);
  await sql`CREATE TABLE raw_chat (LIKE chat_messages_view INCLUDING ALL)`.execute(db);
  const started = performance.now();
  await db.transaction().execute(async (trx) => {
    await sql`INSERT INTO raw_loads (id, guid, shipper_organization_id, posted_by, status, pickup_start, pickup_timezone, dropoff_start, dropoff_timezone,
        expiration, expiration_timezone, load_type_id, equipment, accessories, weight, commodity, ref_number, description,
        pickup_address, pickup_latitude, pickup_longitude, dropoff_address, dropoff_latitude, dropoff_longitude, distance_miles, stops, created_at, updated_at)
      SELECT (data->>'loadId')::uuid, data->>'guid', (data->>'shipperOrganizationId')::uuid, (data->>'postedBy')::uuid, 4,
        (data->'details'->>'pickupStart')::timestamptz, data->'details'->>'pickupTimezone', (data->'details'->>'dropoffStart')::timestamptz, data->'details'->>'dropoffTimezone',
        (data->'details'->>'expiration')::timestamptz, data->'details'->>'expirationTimezone', (data->'details'->>'loadTypeId')::int,
        ARRAY(SELECT jsonb_array_elements_text(data->'details'->'equipment')::int), ARRAY(SELECT jsonb_array_elements_text(data->'details'->'accessories')::int),
        (data->'details'->>'weight')::float8, data->'details'->>'commodity', data->'details'->>'refNumber', data->'details'->>'description',
        data->'details'->'stops'->0->>'address', (data->'details'->'stops'->0->>'latitude')::float8, (data->'details'->'stops'->0->>'longitude')::float8,
        data->'details'->'stops'->-1->>'address', (data->'details'->'stops'->-1->>'latitude')::float8, (data->'details'->'stops'->-1->>'longitude')::float8,
        0, data->'details'->'stops', (data->>'postedAt')::timestamptz, (data->>'postedAt')::timestamptz
      FROM events WHERE type = 'LoadPosted' ORDER BY transaction_id, global_position`.execute(trx);
    await sql`UPDATE raw_loads l SET status = 5, updated_at = (e.data->>'acceptedAt')::timestamptz
      FROM events e WHERE e.type = 'LoadProposalAccepted' AND l.id = (e.data->>'loadId')::uuid`.execute(
      trx,
    );
    await sql`INSERT INTO raw_proposals (id, load_id, load_guid, shipper_organization_id, carrier_organization_id, submitted_by, status, price, message, submitted_at, updated_at)
      SELECT (data->>'proposalId')::uuid, (data->>'loadId')::uuid, data->>'loadGuid', (data->>'shipperOrganizationId')::uuid, (data->>'carrierOrganizationId')::uuid,
        (data->>'submittedBy')::uuid, 10, (data->>'price')::numeric, coalesce(data->>'message', ''), (data->>'submittedAt')::timestamptz, (data->>'submittedAt')::timestamptz
      FROM events WHERE type = 'ProposalSubmitted' ORDER BY transaction_id, global_position`.execute(
      trx,
    );
    // A batch is one PositionsRecorded event (older logs: one PositionRecorded per position).
    await sql`INSERT INTO raw_positions (tour_id, latitude, longitude, speed, heading, accuracy, source, recorded_at, stream_revision, position_index)
      SELECT (e.data->>'tourId')::uuid, (p->>'latitude')::float8, (p->>'longitude')::float8, (p->>'speed')::float8, (p->>'heading')::float8,
        (p->>'accuracy')::float8, e.data->>'source', (p->>'recordedAt')::timestamptz, e.stream_revision, (n - 1)::int
      FROM events e CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN e.type = 'PositionsRecorded' THEN e.data->'positions' ELSE jsonb_build_array(e.data) END) WITH ORDINALITY AS x(p, n)
      WHERE e.type IN ('PositionRecorded', 'PositionsRecorded') ORDER BY e.transaction_id, e.global_position, n`.execute(
      trx,
    );
    await sql`INSERT INTO raw_chat (id, tour_id, user_id, user_name, organization_id, text, posted_at)
      SELECT (data->>'messageId')::uuid, (data->>'tourId')::uuid, (data->>'userId')::uuid, data->>'userName', (data->>'organizationId')::uuid, data->>'text', (data->>'postedAt')::timestamptz
      FROM events WHERE type = 'MessagePosted' ORDER BY transaction_id, global_position`.execute(
      trx,
    );
  });
  return (performance.now() - started) / 1000;
}

/** Makes one shipment through the API and appends clones of its events (fresh ids) until the log holds `target` events. */
async function seedLog(bench: BenchApp, target: number): Promise<number> {
  const { app, platform, db } = bench;
  const shipper = await organization(app, platform, 'Shipper');
  const carriers = await Promise.all([0, 1, 2].map(() => organization(app, platform, 'Carrier')));
  const driver = await member(app, platform, carriers[0]!.organizationId!, 4);
  const keep = new Set(
    [shipper, ...carriers, driver]
      .flatMap((account) => [account.userId, account.organizationId])
      .filter(Boolean) as string[],
  );
  const mark = await platform.store.head();
  const send = async (method: 'POST' | 'PUT', url: string, token: string, payload?: unknown) => {
    const response = await app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload ? { payload: payload as object } : {}),
    });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const { id: loadId } = await send('POST', '/api/loads', shipper.token, loadBody());
  const offers: string[] = [];
  for (const [index, carrier] of carriers.entries())
    offers.push(
      (await send('POST', `/api/proposal/${loadId}`, carrier.token, { price: 1000 + index * 50 }))
        .id,
    );
  await send('PUT', `/api/proposal/${offers[0]}`, shipper.token, { status: 5 });
  const tourId = (await platform.marketplace.loadLoad(loadId))!.tourId!;
  await platform.marketplace.uploadContract(
    {
      actor: {
        userId: carriers[0]!.userId,
        organizationId: carriers[0]!.organizationId,
        roleId: 3,
        permissions: [],
        sessionId: 'bench',
      },
      requestId: 'bench',
    },
    loadId,
    randomUUID(),
    new Date().toISOString(),
  );
  await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carriers[0]!.token);
  await send('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 3 });
  for (let batch = 0; batch < 2; batch++) {
    await send(
      'POST',
      `/api/tours/${tourId}/positions`,
      driver.token,
      Array.from({ length: 50 }, (_, i) => ({
        latitude: 45 + (batch * 50 + i) / 1000,
        longitude: -100 - (batch * 50 + i) / 1000,
        speed: 55,
        heading: 90,
        recordedAt: new Date(Date.now() - 100_000 + (batch * 50 + i) * 1000).toISOString(),
      })),
    );
  }
  await send('POST', `/api/tours/${tourId}/chat`, shipper.token, {
    message: 'Please call at the gate',
  });
  await send('POST', `/api/tours/${tourId}/chat`, driver.token, { message: 'Will do' });

  // The shipment's events, as stored.
  const template: RecordedEvent[] = [];
  for (let from = mark; ; ) {
    const page = await platform.store.readAll({ from, limit: 1000 });
    if (page.length === 0) break;
    template.push(...page.filter((event) => !/^(user|organization|session)/i.test(event.streamId)));
    from = page[page.length - 1]!.position;
  }
  const guid = (template.find((event) => event.type === 'LoadPosted')!.data as { guid: string })
    .guid;
  const {
    rows: [{ n: existing }],
  } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events`.execute(db);
  const copies = Math.ceil((target - existing) / template.length);
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const rows: {
    stream_id: string;
    stream_revision: string;
    event_id: string;
    type: string;
    data: string;
    metadata: string;
  }[] = [];
  const streams = new Map<string, number>();
  const flush = async () => {
    if (rows.length === 0) return;
    await db.insertInto('events').values(rows.splice(0)).execute();
  };
  for (let copy = 1; copy <= copies; copy++) {
    const ids = new Map<string, string>();
    const rename = (text: string) =>
      text
        .replace(uuid, (id) => {
          if (keep.has(id)) return id;
          if (!ids.has(id)) ids.set(id, randomUUID());
          return ids.get(id)!;
        })
        .replaceAll(guid, `C-${copy}`);
    for (const event of template) {
      const streamId = rename(event.streamId);
      streams.set(streamId, event.streamRevision);
      rows.push({
        stream_id: streamId,
        stream_revision: String(event.streamRevision),
        event_id: randomUUID(),
        type: event.type,
        data: rename(JSON.stringify(event.data)),
        metadata: rename(JSON.stringify(event.metadata)),
      });
    }
    if (rows.length >= 2000) await flush();
  }
  await flush();
  const streamRows = [...streams].map(([stream_id, revision]) => ({
    stream_id,
    revision: String(revision),
  }));
  for (let start = 0; start < streamRows.length; start += 2000) {
    await db
      .insertInto('streams')
      .values(streamRows.slice(start, start + 2000))
      .onConflict((oc) => oc.column('stream_id').doNothing())
      .execute();
  }
  await sql`ANALYZE events`.execute(db);
  return copies;
}
