import type { Caller } from '../commands/marketplace.ts';
import type { Actor } from '../http/auth.ts';
import { gazetteer } from '../integrations/places/gazetteer.ts';

/** Fills a stop's missing city and state from the gazetteer (the nearest town to its coordinates). */
export const withPlaces = <
  B extends {
    locations: { latitude: number; longitude: number; city: string | null; state: string | null }[];
  },
>(
  body: B,
): B => {
  if (body.locations.every((stop) => stop.city && stop.state)) return body;
  const places = gazetteer();
  return {
    ...body,
    locations: body.locations.map((stop) => {
      if (stop.city && stop.state) return stop;
      const place = places.reverse(stop.latitude, stop.longitude);
      return {
        ...stop,
        city: stop.city || place?.city || null,
        state: stop.state || place?.state || null,
      };
    }),
  };
};

/** The caller of a load command: who asks, and the request that carries it. */
export const callerOf = (request: { id: string }, actor: Actor): Caller => ({
  actor,
  requestId: request.id,
});
