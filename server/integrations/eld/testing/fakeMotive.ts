/**
 * Motive's `GET /v1/vehicle_locations` as its API reference documents it: `X-Api-Key: <key>`;
 * `per_page` (the server caps it) and `page_no` from 1; `{vehicles: [{vehicle: {id, number, year,
 * make, model, vin, current_location: {lat, lon, bearing, located_at, description, speed}}}],
 * pagination: {per_page, page_no, total}}`; a bad key is 401 `{error_message}`; too many requests
 * 429 with Retry-After.
 */
import { startFakeServer, type FakeServer, type FakeVehicle } from './fakeServer.ts';

export type FakeMotive = FakeServer & { vehicles: FakeVehicle[] };

export async function startFakeMotive(options: {
  apiKey: string;
  vehicles?: FakeVehicle[];
  maxPerPage?: number;
}): Promise<FakeMotive> {
  const vehicles = options.vehicles ?? [];
  const maxPerPage = options.maxPerPage ?? 100;
  const server = await startFakeServer((request) => {
    if (request.method !== 'GET' || request.path !== '/v1/vehicle_locations')
      return { status: 404, body: { error_message: 'Not found' } };
    if (request.headers['x-api-key'] !== options.apiKey)
      return { status: 401, body: { error_message: 'Invalid API key' } };
    const perPage = Math.min(maxPerPage, Math.max(1, Number(request.query.get('per_page') ?? 25)));
    const pageNo = Math.max(1, Number(request.query.get('page_no') ?? 1));
    const page = vehicles.slice((pageNo - 1) * perPage, pageNo * perPage);
    return {
      status: 200,
      body: {
        vehicles: page.map((vehicle) => ({
          vehicle: {
            id: Number(vehicle.id.replace(/\D/g, '')) || vehicle.id,
            number: vehicle.name,
            year: '2021',
            make: 'Freightliner',
            model: 'Cascadia',
            vin: '1FUJGLDR0MLMA0000',
            current_location: {
              lat: vehicle.latitude,
              lon: vehicle.longitude,
              bearing: vehicle.heading ?? 0,
              located_at: vehicle.time ?? new Date().toISOString(),
              description: 'Somewhere, USA',
              ...(vehicle.speed === undefined ? {} : { speed: vehicle.speed }),
            },
            current_driver: null,
          },
        })),
        pagination: { per_page: perPage, page_no: pageNo, total: vehicles.length },
      },
    };
  });
  return Object.assign(server, { vehicles });
}
