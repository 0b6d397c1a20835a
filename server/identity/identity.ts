import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Role, type RoleId } from '../../domain/catalog.ts';
import { ConflictError, NotFoundError } from '../../domain/shared/errors.ts';
import { comparePositions, type LogPosition } from '../eventstore/eventStore.ts';

export { causeOf, metadataFor, type Cause } from '../commands/caller.ts';

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
export const newSixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The latest of several positions (null when nothing was appended). */
export const latest = (...positions: (LogPosition | null)[]): LogPosition | null =>
  positions.reduce<LogPosition | null>(
    (a, b) => (!b ? a : !a ? b : comparePositions(a, b) > 0 ? a : b),
    null,
  );

export const newId = () => randomUUID();
export const assertFound = <T>(value: T | null | undefined, what: string): T => {
  if (value === null || value === undefined) throw new NotFoundError(`${what} not found`);
  return value;
};
export const roleName = (roleId: RoleId) =>
  Object.entries(Role).find(([, id]) => id === roleId)?.[0] ?? 'Unknown';
export { ConflictError };
