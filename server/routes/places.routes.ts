import {
  AutocompleteQuerySchema as AutocompleteQuery,
  placesAnswers,
  ReverseQuerySchema as ReverseQuery,
} from '../../domain/contracts/places.contract.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import type { App } from '../http/routeContext.ts';
import { can } from '../http/auth.ts';
import { attribution, type Place } from '../integrations/places/gazetteer.ts';
import { createPlaceSearch, type PlaceService } from '../integrations/places/photon.ts';

const answer = ({ id, name, address, latitude, longitude, city, state, zip }: Place) => ({
  id,
  name,
  address,
  latitude,
  longitude,
  city,
  state,
  zip,
});

/**
 * Place search for the stop editor and the maps: the embedded US gazetteer, or the Photon server
 * of GEOCODER_URL with the gazetteer behind it. Open to any signed-in user.
 */
export async function placesRoutes(app: App, options: { places?: PlaceService } = {}) {
  const places = options.places ?? createPlaceSearch(process.env, { logger: app.log });

  app.get(
    '/places/autocomplete',
    {
      schema: {
        tags: ['places'],
        summary: 'US places (towns and ZIP codes) matching typed text, best match first',
        description: `Matches town names ("chic"), "City, ST", state names and ZIP prefixes. ${attribution}`,
        querystring: AutocompleteQuery,
        response: placesAnswers.autocomplete,
      },
      onRequest: can(),
    },
    async (request) => {
      const { q, limit } = request.query;
      if (!q) return [];
      return (await places.search(q, limit)).map(answer);
    },
  );

  app.get(
    '/places/reverse',
    {
      schema: {
        tags: ['places'],
        summary: 'The town around a point',
        description: `The town of the nearest ZIP code centroid; 404 far from any. ${attribution}`,
        querystring: ReverseQuery,
        response: placesAnswers.reverse,
      },
      onRequest: can(),
    },
    async (request) => {
      const place = await places.reverse(request.query.latitude, request.query.longitude);
      if (!place) throw new NotFoundError('No place found near these coordinates');
      return answer(place);
    },
  );

  // Builds the embedded table once the server listens, so the first person to type does not wait
  // for it; tests that only inject requests never listen and never pay for it.
  if (places.source === 'gazetteer') {
    app.addHook('onListen', async () => {
      setTimeout(
        () =>
          places
            .search('a', 1)
            .catch((error: unknown) =>
              app.log.warn({ err: error }, 'the gazetteer could not be built'),
            ),
        0,
      );
    });
  }
}
