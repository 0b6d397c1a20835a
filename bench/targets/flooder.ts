/**
 * The flooding socket of T11, in a process of its own (flood.ts forks it) so that its emitting never
 * shares an event loop with the server or with the reader being measured. Given `{url, token,
 * seconds, outstanding}` on IPC, it signs in over socket.io as that user and keeps `outstanding`
 * `tour:watch` of random tour ids unanswered at all times (a new one for each answer), connecting
 * again at once whenever the server closes it, for `seconds`; then it answers with what happened.
 */
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';

export type FloodCommand = { url: string; token: string; seconds: number; outstanding: number };
export type FloodReport = {
  /** `tour:watch` emitted, and answered by the server. */
  sent: number;
  answered: number;
  /** Connections opened, and handshakes refused. */
  connections: number;
  refused: number;
  /** How the server closed the connections (socket.io's reason), and the `limit:exceeded` it sent, by limit. */
  closes: Record<string, number>;
  limits: Record<string, number>;
  reasons: string[];
};

const count = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};

async function flood({ url, token, seconds, outstanding }: FloodCommand): Promise<FloodReport> {
  const report: FloodReport = {
    sent: 0,
    answered: 0,
    connections: 0,
    refused: 0,
    closes: {},
    limits: {},
    reasons: [],
  };
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const socket: Socket = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 10_000,
      auth: { token },
    });
    report.connections += 1;
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('connect_error', () => resolve(false));
    });
    if (!opened) {
      report.refused += 1;
      socket.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    socket.on('limit:exceeded', (payload: { limit: string; reason: string }) => {
      count(report.limits, payload.limit);
      if (!report.reasons.includes(payload.reason)) report.reasons.push(payload.reason);
    });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(
        () => {
          socket.disconnect();
        },
        Math.max(0, until - Date.now()),
      );
      socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        count(report.closes, reason);
        resolve();
      });
      const send = () => {
        if (!socket.connected || Date.now() >= until) return;
        report.sent += 1;
        socket.emit('tour:watch', { tourId: randomUUID() }, () => {
          report.answered += 1;
          send();
        });
      };
      for (let index = 0; index < outstanding; index += 1) send();
    });
  }
  return report;
}

if (!process.send) throw new Error('flooder.ts runs as a forked child of the T11 benchmark');
process.once('message', (command: FloodCommand) => {
  void flood(command).then((report) => {
    process.send!(report);
    process.exit(0);
  });
});
process.on('disconnect', () => process.exit(0));
