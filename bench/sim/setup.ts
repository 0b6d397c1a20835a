/**
 * The marketplace the workload runs on, set up through the HTTP API of the running server the way
 * a Superadmin and its users would: shipper and carrier organizations with their users, one driver
 * per tour, and a pool of Dispatched tours (load, offer, accept, signed contract, driver assigned,
 * driver sets off).
 */
import { randomUUID } from 'node:crypto';
import { loadBody } from '../../server/testing/loadBodies.ts';

export type Answer = { status: number; json: any };
export type Api = (
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Answer>;

export function apiClient(baseUrl: string): Api {
  return async (method, path, token, body, headers = {}) => {
    const form = body instanceof FormData;
    const response = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, json };
  };
}

export type Account = { userId: string; organizationId: string; token: string };
export type Tour = {
  tourId: string;
  loadId: string;
  shipper: Account;
  carrier: Account;
  driver: Account;
};
export type Marketplace = { shippers: Account[]; carriers: Account[]; tours: Tour[] };

const PASSWORD = 'simulate-pass-1';
/** The smallest byte string file-type recognises as a PDF: the documents and the signed contracts. */
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const pdfBlob = () => new Blob([PDF], { type: 'application/pdf' });

async function expectStatus(
  answer: Promise<Answer>,
  statuses: number[],
  label: string,
): Promise<any> {
  const { status, json } = await answer;
  if (!statuses.includes(status)) throw new Error(`${label}: ${status} ${JSON.stringify(json)}`);
  return json;
}

/** Runs `work` over `items` with at most `width` at a time, keeping their order. */
export async function inPool<T, R>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

export async function signIn(api: Api, email: string, password: string): Promise<string> {
  return (
    await expectStatus(
      api('POST', '/login', null, { email, password }),
      [200],
      `sign-in of ${email}`,
    )
  ).accessToken;
}

const contact = (tag: string) => ({
  address: '1 Main St, Chicago, IL',
  person: 'Pat Contact',
  email: `contact-${tag}@sim.example`,
  phone: '555-555-0101',
});

/** POST users/organization (multipart, Superadmin): an Active organization; carriers bring their three documents. */
async function createOrganization(
  api: Api,
  adminToken: string,
  type: 'Shipper' | 'Carrier',
  index: number,
): Promise<string> {
  const tag = randomUUID().slice(0, 8);
  const form = new FormData();
  const base = { type, name: `Sim ${type} ${index} ${tag}`, organizationContactInfo: contact(tag) };
  if (type === 'Shipper') {
    form.append('data', JSON.stringify({ ...base, insuredAmount: 1 }));
  } else {
    form.append(
      'data',
      JSON.stringify({
        ...base,
        mcNumber: 800_000 + index,
        dotNumber: 3_000_000 + index,
        eldProvider: null,
        trucks: [],
        trailers: [],
        driverTeams: [],
      }),
    );
    for (const name of ['mcAuthority', 'certificateOfInsurance', 'w9Form'])
      form.append(name, pdfBlob(), `${name}.pdf`);
  }
  return (
    await expectStatus(
      api('POST', '/users/organization', adminToken, form),
      [201],
      `create ${type} organization`,
    )
  ).id;
}

/** POST users (Superadmin): an Active user of that role in the organization, then its sign-in. */
async function createAccount(
  api: Api,
  adminToken: string,
  organizationId: string,
  roleId: 2 | 3 | 4,
): Promise<Account> {
  const tag = randomUUID().slice(0, 8);
  const email = `sim-${roleId}-${tag}@sim.example`;
  const { id } = await expectStatus(
    api('POST', '/users', adminToken, {
      email,
      username: `sim-${roleId}-${tag}`,
      userDetails: { name: `Sim User ${tag}`, phone: '555-555-0102' },
      password: PASSWORD,
      roleId,
      organizationId,
    }),
    [201],
    `create user of role ${roleId}`,
  );
  return { userId: id, organizationId, token: await signIn(api, email, PASSWORD) };
}

/** Organizations with their first user. */
async function organizations(
  api: Api,
  adminToken: string,
  type: 'Shipper' | 'Carrier',
  count: number,
): Promise<Account[]> {
  return inPool(
    Array.from({ length: count }, (_, index) => index),
    4,
    async (index) =>
      createAccount(
        api,
        adminToken,
        await createOrganization(api, adminToken, type, index),
        type === 'Shipper' ? 2 : 3,
      ),
  );
}

/** One load taken by a carrier and on the road with its own driver: the six commands of a shipment. */
async function dispatchedTour(
  api: Api,
  adminToken: string,
  shipper: Account,
  carrier: Account,
  index: number,
): Promise<Tour> {
  const driver = await createAccount(api, adminToken, carrier.organizationId, 4);
  const { id: loadId } = await expectStatus(
    api('POST', '/loads', shipper.token, loadBody({ refNumber: `SIM-TOUR-${index}` })),
    [201],
    'post load',
  );
  const { id: offerId } = await expectStatus(
    api('POST', `/proposal/${loadId}`, carrier.token, { price: 1500, message: 'Ready' }),
    [201],
    'offer',
  );
  await expectStatus(
    api('PUT', `/proposal/${offerId}`, shipper.token, { status: 5 }),
    [200],
    'accept',
  );
  const form = new FormData();
  form.append('status', '14');
  form.append('contract', pdfBlob(), 'signed.pdf');
  await expectStatus(
    api('POST', `/proposal/load/${loadId}`, carrier.token, form),
    [200],
    'signed contract',
  );
  const { tourId } = await expectStatus(
    api('GET', `/loads/${loadId}`, carrier.token),
    [200],
    'read load',
  );
  await expectStatus(
    api('POST', `/tours/${tourId}/assign/${driver.userId}`, carrier.token),
    [200],
    'assign driver',
  );
  await expectStatus(
    api('PUT', `/tours/${tourId}/status`, driver.token, { status: 3, message: 'Rolling' }),
    [200],
    'set off',
  );
  return { tourId, loadId, shipper, carrier, driver };
}

export async function setUpMarketplace(
  api: Api,
  admin: { email: string; password: string },
  counts: { shippers: number; carriers: number; tours: number },
): Promise<Marketplace> {
  const adminToken = await signIn(api, admin.email, admin.password);
  const shippers = await organizations(api, adminToken, 'Shipper', counts.shippers);
  const carriers = await organizations(api, adminToken, 'Carrier', counts.carriers);
  const tours = await inPool(
    Array.from({ length: counts.tours }, (_, index) => index),
    8,
    (index) =>
      dispatchedTour(
        api,
        adminToken,
        shippers[index % shippers.length],
        carriers[index % carriers.length],
        index,
      ),
  );
  return { shippers, carriers, tours };
}
