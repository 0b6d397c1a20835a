/**
 * Test fixtures for the identity routes: organizations and users written straight through the
 * commands (no HTTP), sign-in, and a multipart body builder for app.inject.
 */
import { randomUUID } from 'node:crypto';
import type { RoleId } from '../../domain/catalog.ts';
import type { OrganizationType } from '../../domain/organizations/organization.ts';
import type { App } from '../app.ts';
import type { Platform } from '../platform.ts';
import { createOrganizationWithUser } from '../commands/organizations.ts';
import { createUser } from '../commands/users.ts';

export const PASSWORD = 'correct-horse-1';
/** The smallest byte strings whose types file-type recognises. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a6a10000000049454e44ae426082',
  'hex',
);

const views = ['users', 'organizations'];
const unique = () => randomUUID().slice(0, 8);

export type Member = {
  userId: string;
  organizationId: string | null;
  email: string;
  username: string;
  token: string;
};

export async function signIn(app: App, email: string, password = PASSWORD): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
  return response.json().accessToken as string;
}

export async function superadmin(app: App, platform: Platform, name = 'Admin'): Promise<Member> {
  const tag = unique();
  const email = `admin-${tag}@example.com`;
  const username = `admin-${tag}`;
  const { userId, position } = await createUser(
    platform,
    {
      email,
      username,
      name,
      phone: '555-555-0100',
      roleId: 1,
      organizationId: null,
      password: PASSWORD,
      status: 2,
    },
    null,
    new Date().toISOString(),
  );
  await platform.runner.waitFor(views, position);
  return { userId, organizationId: null, email, username, token: await signIn(app, email) };
}

/** An organization of that type and status with its first user (a Shipper or a Carrier). */
export async function organization(
  app: App,
  platform: Platform,
  type: OrganizationType,
  options: { status?: 1 | 2; name?: string; userName?: string } = {},
): Promise<Member> {
  const tag = unique();
  const email = `${type.toLowerCase()}-${tag}@example.com`;
  const username = `${type.toLowerCase()}-${tag}`;
  const { organizationId, userId, position } = await createOrganizationWithUser(
    platform,
    {
      type,
      name: options.name ?? `${type} Co ${tag}`,
      contact: {
        address: '1 Main St, Chicago, IL',
        person: 'Pat Contact',
        email: `contact-${tag}@example.com`,
        phone: '555-555-0101',
      },
      carrier:
        type === 'Carrier'
          ? {
              mcNumber: null,
              dotNumber: null,
              eldProvider: null,
              trucks: [],
              trailers: [],
              driverTeams: [],
              documents: {},
            }
          : null,
      shipper: type === 'Shipper' ? { insuredAmount: 1, signatureFileId: null } : null,
      status: options.status ?? 2,
    },
    {
      email,
      username,
      name: options.userName ?? `${type} User ${tag}`,
      phone: '555-555-0102',
      roleId: type === 'Shipper' ? 2 : 3,
      password: PASSWORD,
    },
    null,
    new Date().toISOString(),
  );
  await platform.runner.waitFor(views, position);
  return { userId: userId!, organizationId, email, username, token: await signIn(app, email) };
}

/** One more user in an existing organization. */
export async function member(
  app: App,
  platform: Platform,
  organizationId: string,
  roleId: RoleId,
  options: { name?: string; status?: 1 | 2 } = {},
): Promise<Member> {
  const tag = unique();
  const email = `user-${tag}@example.com`;
  const username = `user-${tag}`;
  const { userId, position } = await createUser(
    platform,
    {
      email,
      username,
      name: options.name ?? `User ${tag}`,
      phone: '555-555-0103',
      roleId,
      organizationId,
      password: PASSWORD,
      status: options.status ?? 2,
    },
    null,
    new Date().toISOString(),
  );
  await platform.runner.waitFor(views, position);
  return { userId, organizationId, email, username, token: await signIn(app, email) };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A multipart/form-data body: `data` as JSON and each file as its own part. */
export function multipart(
  data: unknown,
  files: Record<string, { content: Buffer; filename?: string; type?: string }> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = [];
  if (data !== undefined) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify(data)}\r\n`,
      ),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename ?? `${name}.bin`}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
