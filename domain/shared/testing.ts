import assert from 'node:assert/strict';
import type { AnyEvent, Command, Decider } from './event.ts';

/** given(events).when(command).then(expected) for decider tests. */
export const specFor =
  <S, C extends Command, E extends AnyEvent>(decider: Decider<S, C, E>) =>
  (given: E[]) => ({
    when: (command: C) => {
      const run = () =>
        decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the trade's rule; never awaited
        then: (expected: E[]) => assert.deepEqual(run(), expected),
        thenThrows: (errorType: new (...args: any[]) => Error, message?: RegExp) => {
          assert.throws(run, (error: unknown) => {
            assert.ok(
              error instanceof errorType,
              `expected ${errorType.name}, got ${String(error)}`,
            );
            if (message) assert.match((error as Error).message, message);
            return true;
          });
        },
      };
    },
  });
