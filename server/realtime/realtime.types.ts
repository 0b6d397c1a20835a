/** The realtime channel's shape and needs, and the types of its sockets (socket.io's, with our events and socket data). */
import type { Server as HttpServer } from 'node:http';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../domain/realtime/events.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import type { Actor } from '../http/auth.ts';
import type { NotifierDeps, RowWork } from './notifier.ts';
import type { SessionWatch } from './sessions.ts';
import type { DB } from '../../storage/schema.ts';

export type Realtime = {
  /** Closes every socket in `room`, in every server process (an organization was blocked). */
  disconnectRoom(room: string): void;
  /** Sends to the sockets in any of `rooms`, in every server process; nothing when `rooms` is empty or before `attach`. */
  emit(rooms: string[], event: string, payload: unknown): void;
  /** Puts socket.io on the HTTP server; once. */
  attach(server: HttpServer): Promise<void>;
  /** Closes every socket and stops the notifier; the HTTP server stays the caller's. */
  close(): Promise<void>;
  /** Long-lived connections whose token is re-checked (the raw event feed uses it too). */
  readonly sessions: SessionWatch;
  /** Sockets connected to this process. */
  readonly connections: number;
};

export type RealtimeDeps = {
  config: { databaseUrl: string | null; corsOrigins: string[]; trustProxy: boolean };
  db: Kysely<DB>;
  store: EventStore;
  /** The projection runner of this process: the notifier hears its committed pages. */
  runner: { onCommitted: NotifierDeps['onCommitted'] };
  tokens: { authenticate(token: string): Promise<AccessClaims> };
  marketplace: { visibleTour(actor: Actor, tourId: string): Promise<unknown> };
  identity: { loadOrganization(organizationId: string): Promise<{ name: string } | null> };
  /** The organization's status (1 Pending, 2 Active, 3 Blocked, null unknown): a blocked one's sockets are refused, a Pending carrier's join no marketplace. */
  organizationStatus?: (organizationId: string) => Promise<number | null>;
  logger: Logger;
  /** How often open sockets' sessions are checked for a logout or a block; 500 ms by default. */
  sessionPollMs?: number;
};

/** The server-side event that carries a committed page's rows to the other processes' notifiers. */
export const SHARED_ROWS = 'notifier:rows';
export type SharedRows = {
  serverSideEmit(event: string, work: RowWork): boolean;
  on(event: string, handler: (work: RowWork) => void): void;
};

/** A signed-in user's socket, or one opened with a tracking link (`auth: { shareToken }`): that one tour, read-only. */
export type SocketData =
  | { actor: Actor; claims: AccessClaims; organizationStatus?: number | null }
  | { share: { shareId: string; tourId: string; tokenHash: string; expiresAt: Date } };
export type UserSocketData = Extract<SocketData, { actor: Actor }>;
export type Io = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type IoSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type Reply = (answer: unknown) => void;
/** A client event's handler: its payload, and the acknowledgement (a no-op when the client asked for none). */
export type ClientEventHandler = (payload: unknown, reply: Reply) => Promise<unknown>;
/** An emit whose event and payload the caller vouches for (the notifier and the reactors name the events of `domain/realtime/events.ts`). */
export type Broadcast = { emit(event: string, payload: unknown): boolean };
export const untyped = (target: unknown) => target as Broadcast;
