/**
 * A small round-robin HTTP and WebSocket proxy for the cluster test, without sticky sessions, as a
 * load balancer in front of several server processes: each request and each WebSocket upgrade goes
 * to the next target; a target that refuses the connection (killed, or its listener closed while
 * draining) is skipped and the next one tried, which is safe since nothing was sent to it. Any other
 * failure answers 502. Like Caddy's `lb_try_duration` in deploy/Caddyfile.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type RoundRobinProxy = {
  url: string;
  port: number;
  setTargets(targets: string[]): void;
  close(): Promise<void>;
  stats: { requests: number; retried: number; failed: number; upgrades: number };
};

const REFUSED = new Set(['ECONNREFUSED', 'ECONNRESET_BEFORE_SEND', 'EHOSTUNREACH']);

export async function startRoundRobinProxy(initial: string[]): Promise<RoundRobinProxy> {
  let targets = initial.map((target) => new URL(target));
  let next = 0;
  const stats = { requests: 0, retried: 0, failed: 0, upgrades: 0 };
  const order = () => {
    const start = next++ % targets.length;
    return targets.map((_, index) => targets[(start + index) % targets.length]!);
  };
  const sockets = new Set<net.Socket>();

  const server = http.createServer((request, response) => {
    stats.requests += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const candidates = order();
      const attempt = (index: number) => {
        const target = candidates[index];
        if (!target) {
          stats.failed += 1;
          if (!response.headersSent)
            response.writeHead(502, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              statusCode: 502,
              error: 'Bad Gateway',
              message: 'No server process answered',
            }),
          );
          return;
        }
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: request.method,
            path: request.url,
            headers: {
              ...request.headers,
              host: target.host,
              connection: 'close',
              'x-forwarded-for': request.socket.remoteAddress ?? '',
            },
            agent: false,
          },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
            answer.on('error', () => response.destroy());
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (REFUSED.has(error.code ?? '') && !response.headersSent) {
            stats.retried += 1;
            attempt(index + 1);
            return;
          }
          stats.failed += 1;
          if (!response.headersSent) {
            response.writeHead(502, { 'content-type': 'application/json' });
            response.end(
              JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: error.message }),
            );
          } else {
            response.destroy();
          }
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });

  server.on('upgrade', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    stats.upgrades += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const candidates = order();
    const attempt = (index: number) => {
      const target = candidates[index];
      if (!target) {
        client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
        return;
      }
      const upstream = net.connect(Number(target.port), target.hostname);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        client.on('close', () => upstream.destroy());
        const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
        for (let i = 0; i < request.rawHeaders.length; i += 2) {
          const name = request.rawHeaders[i]!;
          lines.push(
            `${name}: ${name.toLowerCase() === 'host' ? target.host : request.rawHeaders[i + 1]}`,
          );
        }
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => {
        if (!connected) attempt(index + 1);
        else client.destroy();
      });
    };
    attempt(0);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    setTargets(list) {
      targets = list.map((target) => new URL(target));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
