// @postgres: concurrent bookings over a pool of connections
/**
 * Two carriers booking one load at its Book Now price at once, a hundred times over: the load
 * stream's expected revision must let exactly one through. Each trial fires two
 * `POST /api/loads/{id}/book` at once and then reads the events the pair appended (one acceptance on
 * the load stream with its offer, one tour) and, at the end, the shipper's tours table.
 *
 * As in acceptRace.spec.ts, a gate (a preHandler hook of this test, for requests carrying its header)
 * holds each request of a pair until both have arrived, so that both handlers start together and
 * read the same open load.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { permissionsFor, Role } from '../../domain/permissions.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import type { Caller } from '../commands/marketplace.ts';
import { latest, type LogPosition, type RecordedEvent } from '../eventstore/eventStore.ts';
import { organization, type Member } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

const TRIALS = 100;

const GATE_HEADER = 'x-test-race-gate';
const gates = new Map<string, { arrived: number; open: () => void; opened: Promise<void> }>();

function gateFor(name: string) {
  let gate = gates.get(name);
  if (!gate) {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    gate = { arrived: 0, open, opened };
    gates.set(name, gate);
  }
  return gate;
}

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, close } = await startTestApp({}, (app) => {
  app.addHook('preHandler', async (request) => {
    const name = request.headers[GATE_HEADER];
    if (typeof name !== 'string') return;
    const gate = gateFor(name);
    gate.arrived += 1;
    if (gate.arrived === 2) {
      gates.delete(name);
      gate.open();
    }
    // Never hold a request for good: one whose partner was refused earlier (in onRequest) goes on alone.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      gate.opened,
      new Promise((resolve) => {
        timer = setTimeout(resolve, 5_000);
      }),
    ]);
    clearTimeout(timer);
  });
});
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper', { name: 'Book Race Shipping' });
const carriers: Member[] = [
  await organization(app, platform, 'Carrier', { name: 'First Booking' }),
  await organization(app, platform, 'Carrier', { name: 'Second Booking' }),
];
const asShipper: Caller = {
  actor: {
    userId: shipper.userId,
    organizationId: shipper.organizationId,
    roleId: Role.Shipper,
    permissions: permissionsFor(Role.Shipper),
    sessionId: randomUUID(),
  },
  requestId: randomUUID(),
};

const PRICE = 2222;
/** The loads of every trial, posted straight through the command handler; the race goes through HTTP. */
async function prepare(count: number) {
  const loads: string[] = [];
  let last: LogPosition | null = null;
  for (let index = 0; index < count; index += 1) {
    const now = new Date().toISOString();
    const posted = await platform.marketplace.postLoad(
      asShipper,
      loadBodySchema(now).parse(loadBody({ refNumber: `BOOK-RACE-${index}`, bookNowPrice: PRICE })),
      now,
    );
    loads.push(posted.id);
    last = latest(last, posted.position);
  }
  t.ok(await platform.runner.waitFor(['marketplace'], last, 60_000), `${count} loads posted`);
  return loads;
}

const as = requester(app);
const watch = await watchEvents(platform.store);
const described = (event: RecordedEvent) => {
  if (event.type === 'TourOpened')
    return `TourOpened for ${(event.data as { loadId: string }).loadId}`;
  return `${event.type} to ${event.streamId}`;
};

type Outcome = { loadId: string; statuses: number[]; messages: string[]; recorded: string[] };
const outcomes: Outcome[] = [];

t.test(`${TRIALS} trials: two carriers book the same load at once`, async (t) => {
  const loads = await prepare(TRIALS);
  let wrong = 0;
  for (const [index, loadId] of loads.entries()) {
    const gate = randomUUID();
    await watch.take();
    const answers = await Promise.all(
      carriers.map((carrier) =>
        as(carrier).post(`/api/loads/${loadId}/book`, {}, { [GATE_HEADER]: gate }),
      ),
    );
    const recorded = (await watch.take()).map(described);
    const outcome: Outcome = {
      loadId,
      statuses: answers.map((answer) => answer.status),
      messages: answers
        .filter((answer) => answer.status !== 201)
        .map((answer) => answer.body.message as string),
      recorded,
    };
    outcomes.push(outcome);
    const winner = answers.find((answer) => answer.status === 201);
    const expected = winner
      ? [
          `LoadProposalAccepted to ${loadStream(loadId)}`,
          `ProposalSubmitted to proposal-${winner.body.proposalId}`,
          `ProposalAccepted to proposal-${winner.body.proposalId}`,
          `ProposalListed to loadoffers-${loadId}`,
          `TourOpened for ${loadId}`,
        ]
      : [];
    if (
      [...outcome.statuses].sort().join() === '201,409' &&
      outcome.messages.join() === 'This load has already been booked' &&
      recorded.join() === expected.join()
    )
      continue;
    wrong += 1;
    t.same([...outcome.statuses].sort(), [201, 409], `trial ${index}: one 201 and one 409`);
    t.same(
      outcome.messages,
      ['This load has already been booked'],
      `trial ${index}: the loser's message`,
    );
    t.same(
      recorded,
      expected,
      `trial ${index}: one booking, one offer, one tour; the 409 appended nothing`,
    );
  }
  t.equal(
    wrong,
    0,
    `every trial: one 201 and one 409 'This load has already been booked', one LoadProposalAccepted with its offer and one TourOpened, nothing from the 409 (${loads.length} trials)`,
  );
});

t.test('one tour per load, never two', async (t) => {
  const toursByLoad = new Map<string, number>();
  for (let page = 1; ; page += 1) {
    const tours = await as(shipper).get('/api/tours', { pageSize: '100', page: String(page) });
    t.equal(tours.status, 200);
    for (const tour of tours.body.data as { loadId: string }[])
      toursByLoad.set(tour.loadId, (toursByLoad.get(tour.loadId) ?? 0) + 1);
    if (page * 100 >= tours.body.total) break;
  }
  t.same(
    outcomes
      .filter((outcome) => toursByLoad.get(outcome.loadId) !== 1)
      .map((outcome) => outcome.loadId),
    [],
    "every trial's load has exactly one tour",
  );
  t.equal(outcomes.length, TRIALS, 'every trial ran');
  t.equal(
    outcomes.filter((outcome) => outcome.statuses.every((status) => status === 201)).length,
    0,
    'no race answered 201 twice',
  );
});
