// Every read of the marketplace read model the server makes, by screen: the boards of loads, one
// load and the scheduler's look-ups, the offers, the tours.
export * from './loads.queries.ts';
export * from './loadsBoard.queries.ts';
export * from './offers.queries.ts';
export * from './tours.queries.ts';
