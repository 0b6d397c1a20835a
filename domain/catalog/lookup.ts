/** Every enumeration entry has a numeric id and the specification's display name. */
export type Entry = { readonly id: number; readonly name: string };

/** The entry with that id, or undefined when the list has none. */
export const findById = <T extends { readonly id: number | null }>(
  list: readonly T[],
  id: number | null | undefined,
): T | undefined =>
  id === null || id === undefined ? undefined : list.find((entry) => entry.id === id);

/** The display name of the entry with that id, or undefined. */
export const nameById = (
  list: readonly Entry[],
  id: number | null | undefined,
): string | undefined => findById(list, id)?.name;

/** Whether the list holds that id (for validating an id sent by a client). */
export const hasId = (list: readonly Entry[], id: unknown): id is number =>
  typeof id === 'number' && list.some((entry) => entry.id === id);

/** The ids of a list, in its order. */
export const idsOf = <T extends { readonly id: number }>(list: readonly T[]): T['id'][] =>
  list.map((entry) => entry.id);

/** Plain `{id, name}` pairs, e.g. for a `[{id, name}]` answer. */
export const asOptions = (list: readonly Entry[]): Entry[] =>
  list.map(({ id, name }) => ({ id, name }));
