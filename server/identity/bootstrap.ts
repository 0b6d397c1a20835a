import { superadminExists } from '../../projections/users/users.queries.ts';
import { START, comparePositions } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import { createOrganizationWithUser } from '../commands/organizations.ts';
import { createUser } from '../commands/users.ts';
import { demoAuthorityFile } from '../integrations/fmcsa/demoAuthority.ts';

/** Creates the first Superadmin from ADMIN_EMAIL and ADMIN_PASSWORD when none exists. */
export async function ensureSuperadmin(platform: Platform): Promise<string | null> {
  const { config, database, identity, logger, runner, store } = platform;
  await runner.waitFor(['users'], await store.head(), 10_000);
  if (await superadminExists(database.db)) return null;
  if (await identity.userIdByEmail(config.adminEmail)) {
    logger.warn(
      { email: config.adminEmail },
      'ADMIN_EMAIL belongs to another user: no Superadmin created',
    );
    return null;
  }
  const now = new Date().toISOString();
  const { userId, position } = await createUser(
    platform,
    {
      email: config.adminEmail,
      username: 'admin',
      name: 'Admin User',
      phone: '555-555-0100',
      roleId: 1,
      organizationId: null,
      password: config.adminPassword,
      status: 2,
    },
    null,
    now,
  );
  await runner.waitFor(['users'], position);
  logger.info({ email: config.adminEmail }, 'first Superadmin created');
  return userId;
}

export const DEMO_PASSWORD = 'demo12345';

const contact = (person: string, email: string, address: string, phone: string) => ({
  person,
  email,
  address,
  phone,
});
const shippers = [
  {
    key: 'shipper1',
    name: 'Prairie Foods Inc.',
    person: 'Dana Brooks',
    address: '1200 W Fulton Market, Chicago, IL 60607',
    phone: '312-555-0141',
  },
  {
    key: 'shipper2',
    name: 'Gulf Coast Chemicals',
    person: 'Luis Ortega',
    address: '800 Bell St, Houston, TX 77002',
    phone: '713-555-0190',
  },
  {
    key: 'shipper3',
    name: 'Lakefront Dairy Co-op',
    person: 'Mia Novak',
    address: '1500 S 1st St, Milwaukee, WI 53204',
    phone: '414-555-0175',
  },
];
const carriers = [
  {
    key: 'carrier1',
    name: 'Blue Ridge Freight LLC',
    person: 'Sam Carter',
    address: '45 Peachtree Ind Blvd, Atlanta, GA 30303',
    phone: '404-555-0112',
    mc: 712345,
    dot: 2345671,
    status: 2 as const,
  },
  {
    key: 'carrier2',
    name: 'Desert Sun Logistics',
    person: 'Maria Nguyen',
    address: '2100 E Washington St, Phoenix, AZ 85034',
    phone: '602-555-0166',
    mc: 723456,
    dot: 2456782,
    status: 2 as const,
  },
  {
    key: 'carrier3',
    name: 'Northern Star Transport',
    person: 'Erik Larsen',
    address: '500 N 3rd St, Minneapolis, MN 55401',
    phone: '612-555-0175',
    mc: 734567,
    dot: 2567893,
    status: 2 as const,
  },
  {
    key: 'carrier4',
    name: 'Lone Pine Hauling',
    person: 'Jo Whitfield',
    address: '90 Main St, Boise, ID 83702',
    phone: '208-555-0133',
    mc: 745678,
    dot: 2678904,
    status: 1 as const,
  },
];
const drivers = ['Alex Rivera', 'Jordan Lee'];

/**
 * Demo data on an empty log, made with the same commands a user's actions trigger: three shippers and
 * three carriers (Active), one Pending carrier, two drivers per carrier. Every password is demo12345.
 */
export async function seedDemo(platform: Platform): Promise<boolean> {
  const { store, runner, logger } = platform;
  if (comparePositions(await store.head(), START) !== 0) return false;
  const now = new Date().toISOString();
  // FMCSA's records of the demo carriers (and two more, inactive and revoked), unless a real file was imported.
  const imported = await platform.database.db
    .selectFrom('carrier_authority')
    .select('dot_number')
    .limit(1)
    .executeTakeFirst();
  if (!imported) await platform.authority.importFile(demoAuthorityFile(), now);
  let last = null;
  for (const shipper of shippers) {
    const email = `${shipper.key}@demo.freight.local`;
    ({ position: last } = await createOrganizationWithUser(
      platform,
      {
        type: 'Shipper',
        name: shipper.name,
        contact: contact(shipper.person, email, shipper.address, shipper.phone),
        carrier: null,
        shipper: { insuredAmount: 2, signatureFileId: null },
        status: 2,
      },
      {
        email,
        username: shipper.key,
        name: shipper.person,
        phone: shipper.phone,
        password: DEMO_PASSWORD,
        roleId: 2,
      },
      null,
      now,
    ));
  }
  for (const carrier of carriers) {
    const email = `${carrier.key}@demo.freight.local`;
    const created = await createOrganizationWithUser(
      platform,
      {
        type: 'Carrier',
        name: carrier.name,
        contact: contact(carrier.person, email, carrier.address, carrier.phone),
        carrier: {
          mcNumber: carrier.mc,
          dotNumber: carrier.dot,
          eldProvider: 'Simulator',
          trucks: [{ type: 4, count: 6 }],
          trailers: [
            { type: 5, count: 4 },
            { type: 15, count: 2 },
          ],
          driverTeams: [{ type: 1, count: 4 }],
          documents: {},
        },
        shipper: null,
        status: carrier.status,
      },
      {
        email,
        username: carrier.key,
        name: carrier.person,
        phone: carrier.phone,
        password: DEMO_PASSWORD,
        roleId: 3,
      },
      null,
      now,
    );
    last = created.position;
    if (carrier.status !== 2) continue;
    for (const [index, name] of drivers.entries()) {
      ({ position: last } = await createUser(
        platform,
        {
          email: `${carrier.key}.driver${index + 1}@demo.freight.local`,
          username: `${carrier.key}-driver${index + 1}`,
          name,
          phone: `555-555-01${index}${carriers.indexOf(carrier)}`,
          roleId: 4,
          organizationId: created.organizationId,
          password: DEMO_PASSWORD,
          status: 2,
        },
        null,
        now,
      ));
    }
  }
  await runner.waitFor(['users', 'organizations'], last, 10_000);
  logger.info('demo data seeded: see the README for the accounts');
  return true;
}
