/** A fact that happened, with its data. Types are past tense: `LoadPosted`. */
export type Event<
  Type extends string = string,
  Data extends Record<string, unknown> = Record<string, unknown>,
> = {
  type: Type;
  data: Data;
};

/** An intention, imperative: `PostLoad`. Time comes in the command, never from a clock inside the domain. */
export type Command<
  Type extends string = string,
  Data extends Record<string, unknown> = Record<string, unknown>,
> = {
  type: Type;
  data: Data;
};

// biome-ignore lint/suspicious/noExplicitAny: any event of any aggregate; each decider narrows it to its own union
export type AnyEvent = Event<string, any>;

/** Who did it and why; stored beside every event and forming the audit trail. */
export type EventMetadata = {
  userId: string | null;
  organizationId: string | null;
  /** The load id for everything belonging to one shipment, else the request id. */
  correlationId: string | null;
  /** The event or request that caused this one. */
  causationId: string | null;
  /** ISO time of the decision. */
  at: string;
};

export type Decider<State, Cmd extends Command, Evt extends AnyEvent> = {
  initialState: () => State;
  evolve: (state: State, event: Evt) => State;
  decide: (command: Cmd, state: State) => Evt[];
};

export const assertNever = (value: never): never => {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
};
