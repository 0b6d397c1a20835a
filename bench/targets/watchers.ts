/**
 * The watching browsers of T9 and T9b, run in a process of their own (fanout.ts forks it) so that
 * receiving never shares an event loop with the server or with the side that sends. Driven over
 * IPC, one command at a time, after it said `ready`:
 * - `connect`: opens `count` socket.io clients, each joining the tour's room with `tour:watch`;
 * - `count`: how many `tour:position` deliveries have been heard so far;
 * - `collect`: when each position (by its `recordedAt`) was heard, on every socket; forgets them;
 * - `close`: closes the sockets.
 */
import { io, type Socket } from 'socket.io-client';
import { wallClock } from '../lib.ts';

export type WatcherCommand =
  | { type: 'connect'; url: string; token: string | null; tourId: string; count: number }
  | { type: 'count' }
  | { type: 'collect' }
  | { type: 'close' };

export type WatcherReply =
  | { type: 'ready' }
  | { type: 'connected'; watching: number; failures: string[] }
  | { type: 'counted'; deliveries: number }
  | { type: 'collected'; heard: Record<string, number[]> }
  | { type: 'closed' };

/** Sockets opened at once: a thousand handshakes in one burst would time out on a busy machine. */
const CONNECT_BATCH = 100;

const sockets: Socket[] = [];
let heard = new Map<string, number[]>();
let deliveries = 0;

function record(payload: { recordedAt?: string }) {
  // The time first: what follows is bookkeeping, not delivery.
  const at = wallClock();
  const key = String(payload?.recordedAt);
  let times = heard.get(key);
  if (!times) heard.set(key, (times = []));
  times.push(at);
  deliveries += 1;
}

async function watcher(url: string, token: string | null, tourId: string): Promise<Socket> {
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 30_000,
    auth: token ? { token } : {},
  });
  sockets.push(socket);
  socket.on('tour:position', record);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const answer = (await socket.timeout(30_000).emitWithAck('tour:watch', { tourId })) as {
    ok: boolean;
    error?: string;
  };
  if (!answer.ok) throw new Error(`tour:watch refused: ${answer.error}`);
  return socket;
}

async function connect({
  url,
  token,
  tourId,
  count,
}: Extract<WatcherCommand, { type: 'connect' }>): Promise<WatcherReply> {
  const failures: string[] = [];
  let watching = 0;
  for (let start = 0; start < count; start += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - start) }, () =>
      watcher(url, token, tourId),
    );
    for (const result of await Promise.allSettled(batch)) {
      if (result.status === 'fulfilled') watching += 1;
      else failures.push(String((result.reason as Error)?.message ?? result.reason));
    }
  }
  return { type: 'connected', watching, failures: [...new Set(failures)] };
}

function collect(): WatcherReply {
  const answer: WatcherReply = { type: 'collected', heard: Object.fromEntries(heard) };
  heard = new Map();
  deliveries = 0;
  return answer;
}

function close(): WatcherReply {
  for (const socket of sockets.splice(0)) socket.disconnect();
  return { type: 'closed' };
}

async function answer(command: WatcherCommand): Promise<WatcherReply> {
  switch (command.type) {
    case 'connect':
      return connect(command);
    case 'count':
      return { type: 'counted', deliveries };
    case 'collect':
      return collect();
    case 'close':
      return close();
  }
}

if (!process.send) throw new Error('watchers.ts runs as a forked child of the T9 benchmark');
process.on('message', (command: WatcherCommand) => {
  void answer(command).then((reply) => process.send!(reply));
});
process.send({ type: 'ready' } satisfies WatcherReply);
// The parent gone, nothing is left to report to.
process.on('disconnect', () => {
  close();
  process.exit(0);
});
