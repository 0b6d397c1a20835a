/**
 * Samsara's `GET /fleet/vehicles/locations` as its API reference documents it: `Authorization:
 * Bearer <API token>`; `{data: [{id, name, location: {latitude, longitude, heading, speed (mph),
 * time, reverseGeo, isEcuSpeed}}], pagination: {endCursor, hasNextPage}}`; the next page with
 * `after=<endCursor>`; a bad token is 401 `{message, requestId}`; too many requests 429 with
 * Retry-After.
 */
import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeServer, type FakeVehicle } from './fakeServer.ts';

export type FakeSamsara = FakeServer & { vehicles: FakeVehicle[] };

export async function startFakeSamsara(options: {
  token: string;
  vehicles?: FakeVehicle[];
  pageSize?: number;
}): Promise<FakeSamsara> {
  const vehicles = options.vehicles ?? [];
  const pageSize = options.pageSize ?? 512;
  const server = await startFakeServer((request) => {
    if (request.method !== 'GET' || request.path !== '/fleet/vehicles/locations')
      return { status: 404, body: { message: 'Not Found', requestId: randomUUID() } };
    if (request.headers.authorization !== `Bearer ${options.token}`)
      return { status: 401, body: { message: 'Invalid API token', requestId: randomUUID() } };
    const after = request.query.get('after');
    const start = after ? Number(Buffer.from(after, 'base64url').toString('utf8')) : 0;
    const page = vehicles.slice(start, start + pageSize);
    const next = start + page.length;
    const hasNextPage = next < vehicles.length;
    return {
      status: 200,
      body: {
        data: page.map((vehicle) => ({
          id: vehicle.id,
          name: vehicle.name,
          location: {
            latitude: vehicle.latitude,
            longitude: vehicle.longitude,
            heading: vehicle.heading ?? 0,
            speed: vehicle.speed ?? 0,
            time: vehicle.time ?? new Date().toISOString(),
            reverseGeo: { formattedLocation: 'Somewhere, USA' },
            isEcuSpeed: false,
          },
        })),
        pagination: {
          endCursor: hasNextPage ? Buffer.from(String(next)).toString('base64url') : '',
          hasNextPage,
        },
      },
    };
  });
  return Object.assign(server, { vehicles });
}
