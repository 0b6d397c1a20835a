/** How the notifier hands a message to sockets: the rooms, the event name and its payload. */
export type Emit = (rooms: string[], event: string, payload: unknown, except?: string[]) => void;
/** One message to the sockets of some rooms. */
export type Push = {
  rooms: string[];
  event: string;
  payload: unknown;
  /** Rooms whose sockets do not hear it even when in `rooms` (a shipper's blocked carriers). */
  except?: string[];
};
