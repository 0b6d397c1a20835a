import type { Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../../domain/realtime/events.ts';

/** The socket.io socket with the events of docs/api.md "Realtime" typed both ways. */
export type TypedSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type Transport = 'websocket' | 'polling';

/** WebSocket only: no long-polling handshake, which needs sticky sessions behind a load balancer. */
export const DEFAULT_TRANSPORTS: Transport[] = ['websocket'];
