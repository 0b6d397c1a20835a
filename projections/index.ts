import { organizationsProjection } from './organizations/organizations.projection.ts';
import type { Projection } from './projection.ts';
import { usersProjection } from './users/users.projection.ts';

/** Every read model the server keeps. */
export const allProjections: Projection[] = [usersProjection, organizationsProjection];
