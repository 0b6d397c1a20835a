import type { Projection } from './projection.ts';

/** Every read model the server keeps. */
export const allProjections: Projection[] = [];
