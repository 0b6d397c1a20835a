// @postgres: concurrent accepts over a pool of connections
/**
 * Two acceptances racing on one load, a hundred times over: the load stream's expected revision
 * must let exactly one through. Each trial fires two `PUT /api/proposal/{id}` `{status: 5}` at once
 * (Promise.all over app.inject) and then reads the events the pair appended (one acceptance on the
 * load stream, the other offer declined, one tour) and what the shipper sees: the offers on the
 * load, and at the end the tours table.
 *
 * On PGlite every query runs inside this process and settles on the microtask queue, so the request
 * whose body is read first runs its whole handler before the other one's body is even parsed (a
 * macrotask): fired "at once", the two would simply take turns, and the second would only meet an
 * already declined offer. A gate (a preHandler hook of this test, for requests carrying its header)
 * holds each request of a pair until both have arrived, so that both handlers start together and
 * read the same state; the refusals tallied below show which rule stopped the loser.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { GenericStatus } from '../../domain/catalog.ts';
import { loadStream } from '../../domain/loads/load.types.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { permissionsFor, Role, type RoleId } from '../../domain/permissions.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import type { Caller } from '../commands/marketplace.ts';
import type { LogPosition, RecordedEvent } from '../eventstore/eventStore.ts';
import type { Actor } from '../http/auth.ts';
import { organization, type Member } from '../identity/fixtures.ts';
import { latest } from '../eventstore/eventStore.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

const TRIALS = 100;
const SAME_OFFER_TRIALS = 20;

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

const shipper = await organization(app, platform, 'Shipper', { name: 'Race Shipping' });
const carrierOne = await organization(app, platform, 'Carrier', { name: 'First Hauling' });
const carrierTwo = await organization(app, platform, 'Carrier', { name: 'Second Hauling' });

const callerOf = (user: Member, roleId: RoleId): Caller => {
  const actor: Actor = {
    userId: user.userId,
    organizationId: user.organizationId,
    roleId,
    permissions: permissionsFor(roleId),
    sessionId: randomUUID(),
  };
  return { actor, requestId: randomUUID() };
};
const asShipper = callerOf(shipper, Role.Shipper);
const asCarrier = [callerOf(carrierOne, Role.Carrier), callerOf(carrierTwo, Role.Carrier)];

type Trial = { loadId: string; guid: string; offerIds: string[] };

/**
 * The loads and offers of every trial, straight through the command handlers (the HTTP path of
 * posting and bidding is marketplace.flow.spec.ts's): one wait for the read models at the end
 * instead of one per request keeps the file's run short. The race itself goes through HTTP.
 */
async function prepare(count: number, offers: 1 | 2): Promise<Trial[]> {
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  const trials: Trial[] = [];
  let last: LogPosition | null = null;
  for (let index = 0; index < count; index += 1) {
    const now = new Date().toISOString();
    const posted = await platform.marketplace.postLoad(
      asShipper,
      loadBodySchema(now).parse(loadBody({ refNumber: `RACE-${index}` })),
      now,
    );
    last = latest(last, posted.position);
    const offerIds: string[] = [];
    for (const [side, caller] of asCarrier.slice(0, offers).entries()) {
      const offer = await platform.marketplace.submitOffer(
        caller,
        posted.id,
        { price: 1000 + side * 50, message: '', eldTruckName: null },
        now,
      );
      offerIds.push(offer.id);
      last = latest(last, offer.position);
    }
    trials.push({ loadId: posted.id, guid: posted.guid, offerIds });
  }
  // declineOthers reads the open offers from proposals_view: both must be there before the race.
  t.ok(
    await platform.runner.waitFor(['marketplace'], last, 60_000),
    `${count} loads with ${offers} offer(s) each in the read models`,
  );
  t.comment(
    `prepared ${count} loads with ${offers} offer(s) each in ${Math.round(performance.now() - started)} ms (${cpuMs(cpu)} ms CPU)`,
  );
  return trials;
}

const as = requester(app);
const accept = (offerId: string, gate: string) =>
  as(shipper).put(
    `/api/proposal/${offerId}`,
    { status: GenericStatus.Accepted },
    { [GATE_HEADER]: gate },
  );
const get = async (url: string, query?: Record<string, string>) => {
  const response = await as(shipper).get(url, query);
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${response.text}`);
  return response.body;
};

const watch = await watchEvents(platform.store);
/** An event as a trial's record lists it: its type, its stream, and the offer or load it names. */
const described = (event: RecordedEvent) => {
  const data = event.data as { proposalId?: string; loadId?: string };
  if (event.type === 'LoadProposalAccepted')
    return `${event.type} to ${event.streamId} for ${data.proposalId}`;
  // The tour's id is the winner's to make: the tour is named by its load.
  if (event.type === 'TourOpened') return `${event.type} for ${data.loadId}`;
  return `${event.type} to ${event.streamId}`;
};
/** What one won acceptance appends (shipments.ts changeOffer): the load's, the offers', the tour. */
const acceptance = (loadId: string, winner: string, declined: string[]) => [
  `LoadProposalAccepted to ${loadStream(loadId)} for ${winner}`,
  `ProposalAccepted to ${offerStream(winner)}`,
  ...declined.map((offerId) => `ProposalDeclined to ${offerStream(offerId)}`),
  `TourOpened for ${loadId}`,
];

type Outcome = {
  trial: Trial;
  statuses: number[];
  messages: string[];
  /** The events both requests appended, {@link described}, in log order. */
  recorded: string[];
  accepted: string[];
  declined: string[];
};

/** Both acceptances at once, then the events they appended and the offers on the load as the shipper reads them. */
async function race(trial: Trial, offerIds: [string, string]): Promise<Outcome> {
  const gate = randomUUID();
  await watch.take();
  const answers = await Promise.all(offerIds.map((offerId) => accept(offerId, gate)));
  const recorded = (await watch.take()).map(described);
  const offers = await get(`/api/proposal/${trial.loadId}`, { pageSize: '10' });
  const withStatus = (status: number) =>
    offers.data
      .filter((offer: { status: number }) => offer.status === status)
      .map((offer: { id: string }) => offer.id);
  return {
    trial,
    statuses: answers.map((answer) => answer.status),
    messages: answers
      .filter((answer) => answer.status !== 200)
      .map((answer) => answer.body.message as string),
    recorded,
    accepted: withStatus(GenericStatus.Accepted),
    declined: withStatus(GenericStatus.Declined),
  };
}

/** The load stream's refusal (load.decide.ts): the loser read its offer as still open, so the two really overlapped. */
const LOST_AT_THE_LOAD = 'This load already has an accepted offer';
const ALREADY_ACCEPTED = 'An offer that is Accepted cannot be accepted';

const oneOkOneConflict = (outcome: Outcome) => [...outcome.statuses].sort().join(',') === '200,409';
const tally = (messages: string[]) =>
  [
    ...messages.reduce(
      (counts, message) => counts.set(message, (counts.get(message) ?? 0) + 1),
      new Map<string, number>(),
    ),
  ]
    .map(([message, count]) => `${count}× "${message}"`)
    .join(', ');
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

const outcomes: Outcome[] = [];

t.test(`${TRIALS} trials: two offers on a fresh load, both accepted at once`, async (t) => {
  const trials = await prepare(TRIALS, 2);
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  let wrong = 0;
  for (const [index, trial] of trials.entries()) {
    const outcome = await race(trial, [trial.offerIds[0]!, trial.offerIds[1]!]);
    outcomes.push(outcome);
    const winner = outcome.statuses[0] === 200 ? trial.offerIds[0] : trial.offerIds[1];
    const loser = winner === trial.offerIds[0] ? trial.offerIds[1] : trial.offerIds[0];
    const recorded = acceptance(trial.loadId, winner!, [loser!]);
    if (
      oneOkOneConflict(outcome) &&
      outcome.recorded.join() === recorded.join() &&
      outcome.accepted.join() === winner &&
      outcome.declined.join() === loser
    )
      continue;
    wrong += 1;
    // Only a bad trial gets its own assertions, with everything needed to read it.
    t.same(
      [...outcome.statuses].sort(),
      [200, 409],
      `trial ${index} (${trial.guid}): one 200 and one 409`,
    );
    t.same(
      outcome.accepted,
      [winner],
      `trial ${index}: exactly one accepted offer, the one answered 200`,
    );
    t.same(outcome.declined, [loser], `trial ${index}: the other offer is Declined`);
    t.same(
      outcome.recorded,
      recorded,
      `trial ${index}: one acceptance on the load stream (the 200's), the other offer declined, one tour; the 409 appended nothing`,
    );
  }
  const refusals = outcomes.slice(-trials.length).flatMap((outcome) => outcome.messages);
  t.equal(
    wrong,
    0,
    `every trial: one 200 and one 409, one LoadProposalAccepted on the load stream with its ProposalAccepted, ProposalDeclined and TourOpened, nothing from the 409, exactly one accepted offer (the 200's), the other Declined (${trials.length} trials)`,
  );
  // Proof that the requests really overlapped: nearly every loser had read its offer as open and was
  // stopped by the load stream. On a crowded machine a loser now and then reads only after the
  // winner declined it, and is refused as Declined: just as correct, but no race.
  const atTheLoad = refusals.filter((message) => message === LOST_AT_THE_LOAD).length;
  t.ok(
    atTheLoad >= Math.ceil(trials.length * 0.95),
    `losers stopped by the load stream: ${atTheLoad} of ${trials.length} (both requests had read the offers as open)`,
  );
  t.comment(
    `two offers: ${trials.length} races in ${Math.round(performance.now() - started)} ms (${cpuMs(cpu)} ms CPU); refusals: ${tally(refusals)}`,
  );
});

t.test(`${SAME_OFFER_TRIALS} trials: the same offer accepted twice at once`, async (t) => {
  const trials = await prepare(SAME_OFFER_TRIALS, 1);
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  let wrong = 0;
  for (const [index, trial] of trials.entries()) {
    const offer = trial.offerIds[0]!;
    const outcome = await race(trial, [offer, offer]);
    outcomes.push(outcome);
    const recorded = acceptance(trial.loadId, offer, []);
    if (
      oneOkOneConflict(outcome) &&
      outcome.recorded.join() === recorded.join() &&
      outcome.accepted.join() === offer
    )
      continue;
    wrong += 1;
    t.same(
      [...outcome.statuses].sort(),
      [200, 409],
      `trial ${index} (${trial.guid}): one 200 and one 409`,
    );
    t.same(outcome.accepted, [offer], `trial ${index}: the offer is accepted once`);
    t.same(
      outcome.recorded,
      recorded,
      `trial ${index}: one acceptance on the load stream and one tour; the 409 appended nothing`,
    );
  }
  const refusals = outcomes.slice(-trials.length).flatMap((outcome) => outcome.messages);
  t.equal(
    wrong,
    0,
    `every trial: one 200 and one 409, one LoadProposalAccepted on the load stream with its ProposalAccepted and TourOpened, nothing from the 409, the offer accepted (${trials.length} trials)`,
  );
  // As above: nearly every second request had read the offer as open and was stopped by the load
  // stream; now and then one reads only after the first committed and is refused as already Accepted.
  t.same(
    refusals.filter((message) => message !== LOST_AT_THE_LOAD && message !== ALREADY_ACCEPTED),
    [],
    'every refusal is one of the two',
  );
  const atTheLoad = refusals.filter((message) => message === LOST_AT_THE_LOAD).length;
  t.ok(
    atTheLoad >= Math.ceil(trials.length * 0.95),
    `second acceptances stopped by the load stream: ${atTheLoad} of ${trials.length} (both requests had read the offer as open)`,
  );
  t.comment(
    `same offer: ${trials.length} races in ${Math.round(performance.now() - started)} ms (${cpuMs(cpu)} ms CPU); refusals: ${tally(refusals)}`,
  );
});

t.test('one tour per load, and no double accepts', async (t) => {
  // The shipper's tours table, every page: only these trials' loads have tours.
  const toursByLoad = new Map<string, number>();
  let total = 0;
  for (let page = 1; ; page += 1) {
    const tours = await get('/api/tours', { pageSize: '100', page: String(page) });
    total = tours.total;
    for (const tour of tours.data as { loadId: string }[])
      toursByLoad.set(tour.loadId, (toursByLoad.get(tour.loadId) ?? 0) + 1);
    if (page * 100 >= total) break;
  }
  const withoutOneTour = outcomes.filter((outcome) => toursByLoad.get(outcome.trial.loadId) !== 1);
  t.same(
    withoutOneTour.map(
      (outcome) => `${outcome.trial.guid}: ${toursByLoad.get(outcome.trial.loadId) ?? 0} tours`,
    ),
    [],
    "every trial's load has exactly one tour",
  );
  t.equal(total, outcomes.length, "the shipper's tours table: one row per trial");

  const doubles = outcomes.filter(
    (outcome) =>
      outcome.statuses.every((status) => status === 200) ||
      outcome.recorded.filter((event) => event.startsWith('LoadProposalAccepted ')).length > 1 ||
      outcome.accepted.length > 1 ||
      (toursByLoad.get(outcome.trial.loadId) ?? 0) > 1,
  );
  t.comment(`accept race: ${outcomes.length} trials, ${doubles.length} double accepts`);
  t.equal(outcomes.length, TRIALS + SAME_OFFER_TRIALS, 'every trial ran');
  t.equal(
    doubles.length,
    0,
    'no race answered 200 twice or recorded two acceptances, no load has two accepted offers or two tours',
  );
  t.comment(
    `this file so far: ${Math.round(performance.now() / 1000)} s, ${Math.round(cpuMs({ user: 0, system: 0 }) / 1000)} s CPU`,
  );
});
