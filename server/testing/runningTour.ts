/**
 * A shipment driven through the HTTP API up to a tour on the road: posted, offered, accepted, the
 * contract signed, the driver assigned and set off. For tests that need positions to flow.
 */
import { expectStatus, postLoad, submitOffer, uploadContract } from '../realtime/testing.ts';

type Http = (
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: any }>;

/** `token` answers a valid access token of each party at each call (tests with short-lived tokens sign in again). */
export async function runningTour(
  http: Http,
  token: (who: 'shipper' | 'carrier' | 'driver') => Promise<string>,
  driverUserId: string,
): Promise<{ loadId: string; tourId: string }> {
  const tokens = {
    get shipper() {
      return token('shipper');
    },
    get carrier() {
      return token('carrier');
    },
    get driver() {
      return token('driver');
    },
  };
  const { id: loadId } = await postLoad(http, await tokens.shipper);
  const offerId = await submitOffer(http, await tokens.carrier, loadId, 1500);
  await expectStatus(
    http('PUT', `/api/proposal/${offerId}`, await tokens.shipper, { status: 5 }),
    200,
    'accept',
  );
  const tourId = (
    await expectStatus(http('GET', `/api/loads/${loadId}`, await tokens.shipper), 200, 'load')
  ).tourId as string;
  if (!tourId) throw new Error('no tour opened');
  await uploadContract(http, await tokens.carrier, loadId);
  await expectStatus(
    http('POST', `/api/tours/${tourId}/assign/${driverUserId}`, await tokens.carrier),
    200,
    'assign',
  );
  await expectStatus(
    http('PUT', `/api/tours/${tourId}/status`, await tokens.driver, {
      status: 3,
      message: 'Rolling',
    }),
    200,
    'dispatch',
  );
  return { loadId, tourId };
}
