/**
 * The tour aggregate (stream `tour-<uuid>`): the run of one accepted load, from the acceptance to
 * the delivery and the ratings (docs/domain.md "Tour" and "Ratings"). Positions live in their own stream
 * (`tourpositions-<tourId>`); the tour stream only records what they caused (arrivals, departures,
 * the move to In Transit). Tour chat lives in `tourchat-<tourId>`. Types only, one module per part
 * (events, commands, state, chat, positions); rules are in `tour.decide.ts`.
 */
export * from './tour.commands.ts';
export * from './tour.events.ts';
export * from './tour.state.ts';
export * from './tourChat.types.ts';
export * from './tourPositions.types.ts';

export const tourStream = (tourId: string): string => `tour-${tourId}`;
export const tourPositionsStream = (tourId: string): string => `tourpositions-${tourId}`;
export const tourChatStream = (tourId: string): string => `tourchat-${tourId}`;
