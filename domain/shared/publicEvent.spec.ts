import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { OrganizationEvent } from '../organizations/organization.ts';
import type { OrganizationServiceEvent } from '../services/organizationService.types.ts';
import type { TourEvent } from '../tours/tour.types.ts';
import type { UserEvent } from '../users/user.ts';
import { publicEvent, SECRET_FIELDS } from './publicEvent.ts';

/**
 * Every event type with secrets, as the log holds it and as a person or an integration is shown it;
 * and a guard over `domain/`: a field named like a password, a secret, a hash or a token in an event
 * type must be classified, secret (`SECRET_FIELDS`) or not (`NOT_SECRET` below, with the reason).
 */
const at = '2026-12-01T10:00:00.000Z';
const user = '11111111-1111-4111-8111-111111111111';
const samples = [
  {
    type: 'UserRegistered',
    data: {
      userId: user,
      email: 'ann@example.com',
      username: 'ann',
      name: 'Ann Lee',
      phone: '555-555-0100',
      roleId: 3,
      organizationId: null,
      passwordHash: 'scrypt$N=16384$salt$hash-of-the-password',
      status: 1,
      confirmation: { codeHash: 'sha256-of-the-signup-code', expiresAt: at },
      registeredAt: at,
    },
  },
  {
    type: 'SignupCodeResent',
    data: {
      userId: user,
      confirmation: { codeHash: 'sha256-of-the-new-signup-code', expiresAt: at },
      resentAt: at,
    },
  },
  {
    type: 'PasswordChanged',
    data: { userId: user, passwordHash: 'scrypt$new-password-hash', changedAt: at },
  },
  {
    type: 'PasswordResetRequested',
    data: {
      userId: user,
      resetCodeHash: 'sha256-of-the-reset-code',
      expiresAt: at,
      requestedAt: at,
    },
  },
  {
    type: 'PasswordReset',
    data: { userId: user, passwordHash: 'scrypt$reset-password-hash', resetAt: at },
  },
  {
    type: 'ServiceInstalled',
    data: {
      organizationServiceId: user,
      organizationId: user,
      serviceId: 'samsara',
      clientId: null,
      sealedSecret: 'v1.sealed-eld-secret',
      installedBy: user,
      installedAt: at,
    },
  },
  {
    type: 'ServiceCredentialsUpdated',
    data: {
      organizationServiceId: user,
      clientId: 'fleet-7',
      sealedSecret: 'v1.sealed-eld-secret-2',
      updatedBy: user,
      updatedAt: at,
    },
  },
  {
    type: 'TourShared',
    data: {
      tourId: user,
      shareId: user,
      tokenHash: 'sha256-of-the-link-token',
      organizationId: user,
      sharedBy: user,
      expiresAt: at,
      sharedAt: at,
    },
  },
  {
    type: 'TourAssigned',
    data: {
      tourId: user,
      assigneeId: user,
      assigneeName: 'Dana Brooks',
      previousAssigneeId: null,
      assignedBy: user,
      assignedAt: at,
      tractorNumber: 'T-481',
      trailerNumber: null,
      sealedReleaseSecret: 'v1.sealed-release-secret',
    },
  },
  {
    type: 'DockLinkCreated',
    data: {
      tourId: user,
      linkId: user,
      tokenHash: 'sha256-of-the-dock-token',
      organizationId: user,
      createdBy: user,
      expiresAt: at,
      createdAt: at,
    },
  },
  {
    type: 'TwoFactorSetupStarted',
    data: { userId: user, sealedSecret: 'v1.sealed-totp-secret', startedAt: at },
  },
  {
    type: 'TwoFactorEnabled',
    data: {
      userId: user,
      recoveryCodeHashes: ['sha256-of-recovery-code-1', 'sha256-of-recovery-code-2'],
      step: 59_000_000,
      enabledAt: at,
    },
  },
  {
    type: 'RecoveryCodeUsed',
    data: { userId: user, codeHash: 'sha256-of-recovery-code-1', remaining: 9, usedAt: at },
  },
  {
    type: 'OrganizationContactChangeRequested',
    data: {
      organizationId: user,
      changeId: user,
      requestedBy: user,
      requestedAt: at,
      pendingUntil: at,
      contact: {
        address: '2 Main St',
        person: 'Pat',
        email: 'new@example.com',
        phone: '555-555-0199',
      },
      previous: {
        address: '1 Main St',
        person: 'Pat',
        email: 'old@example.com',
        phone: '555-555-0101',
      },
      tokenHash: 'sha256-of-the-contact-cancel-token',
    },
  },
] as const satisfies readonly (
  | UserEvent
  | OrganizationEvent
  | OrganizationServiceEvent
  | TourEvent
)[];

const secretValues = [
  'hash-of-the-password',
  'signup-code',
  'new-password-hash',
  'reset-code',
  'reset-password-hash',
  'sealed-eld-secret',
  'link-token',
  'sealed-release-secret',
  'dock-token',
  'sealed-totp-secret',
  'recovery-code',
  'contact-cancel-token',
];

t.test(
  'every event type with secrets is shown without them, and with everything else',
  async (t) => {
    t.same(
      samples.map((sample) => sample.type).sort(),
      Object.keys(SECRET_FIELDS).sort(),
      'a sample for every classified type',
    );
    for (const sample of samples) {
      const recorded = {
        ...sample,
        id: 'e1',
        streamId: `s-${sample.type}`,
        metadata: { userId: user, at },
      };
      const before = JSON.stringify(recorded);
      const shown = publicEvent(recorded);
      const text = JSON.stringify(shown);
      t.same(
        secretValues.filter((value) => text.includes(value)),
        [],
        `${sample.type}: no secret`,
      );
      t.equal(
        JSON.stringify(recorded),
        before,
        `${sample.type}: the event read from the log is not changed`,
      );
      const expected: Record<string, unknown> = structuredClone(sample.data) as Record<
        string,
        unknown
      >;
      for (const path of SECRET_FIELDS[sample.type]) {
        const keys = path.split('.');
        const parent = keys
          .slice(0, -1)
          .reduce<Record<string, unknown>>(
            (object, key) => object[key] as Record<string, unknown>,
            expected,
          );
        delete parent[keys.at(-1)!];
      }
      t.same(
        shown,
        { ...recorded, data: expected },
        `${sample.type}: every other field, the metadata and the ids as they were`,
      );
    }
  },
);

t.test(
  'an event without secrets is handed back as it is; a null one-time code stays null',
  async (t) => {
    const posted = {
      type: 'LoadPosted',
      data: { loadId: 'l1', passwordHash: 'not a secret field of this type' },
    };
    t.equal(publicEvent(posted), posted);
    const byAdmin = { type: 'UserRegistered', data: { ...samples[0].data, confirmation: null } };
    t.same(publicEvent(byAdmin).data.confirmation, null);
    t.notOk('passwordHash' in publicEvent(byAdmin).data);
  },
);

// ---------------------------------------------------------------------------------------------
// The guard: the event types as `domain/` declares them (`type X = Event<'Name', {...}>`), each
// field followed through the named types it uses (`OneTimeCode`, `CarrierProfile`, ...).

/** Field names that call for a decision: a password, a secret, a hash, a token, a credential, a key. */
const SECRET_LIKE = /password|secret|hash|token|sealed|credential|api_?key|private_?key|otp|pin\b/i;

/** Fields named like a secret that are not one, by event type, with the reason. */
const NOT_SECRET: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

const domainRoot = join(import.meta.dirname, '..');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [path] : [];
  });
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Each `type Name = ...;` of the sources: its text up to the `;` that closes it. */
function typeDeclarations(files: string[]): Map<string, string[]> {
  const declarations = new Map<string, string[]>();
  for (const file of files) {
    const source = withoutComments(readFileSync(file, 'utf8'));
    for (const match of source.matchAll(/\btype\s+([A-Z]\w*)\s*(?:<[^=]*>)?\s*=/g)) {
      let depth = 0;
      let end = match.index + match[0].length;
      for (; end < source.length; end++) {
        const char = source[end];
        if (char === '=' && source[end + 1] === '>') {
          end++;
          continue;
        }
        if ('({[<'.includes(char)) depth++;
        else if (')}]>'.includes(char)) depth--;
        else if (char === ';' && depth === 0) break;
      }
      const body = source.slice(match.index + match[0].length, end);
      declarations.set(match[1], [...(declarations.get(match[1]) ?? []), body]);
    }
  }
  return declarations;
}

/** The field names of a type's text and of every named type it uses, once each. */
function fieldNames(
  text: string,
  declarations: Map<string, string[]>,
  seen = new Set<string>(),
): Set<string> {
  const names = new Set([...text.matchAll(/([A-Za-z_]\w*)\??\s*:/g)].map((match) => match[1]));
  for (const [, name] of text.matchAll(/\b([A-Z]\w*)\b/g)) {
    if (seen.has(name) || !declarations.has(name)) continue;
    seen.add(name);
    for (const body of declarations.get(name)!)
      for (const field of fieldNames(body, declarations, seen)) names.add(field);
  }
  return names;
}

/** Each event type declared in the files, with every field name it holds. */
function eventTypes(files: string[]): Map<string, Set<string>> {
  const declarations = typeDeclarations(files);
  const events = new Map<string, Set<string>>();
  for (const bodies of declarations.values()) {
    for (const body of bodies) {
      const event = /^\s*Event<\s*'(\w+)'\s*,([\s\S]*)>\s*$/.exec(body);
      if (event) events.set(event[1], fieldNames(event[2], declarations));
    }
  }
  return events;
}

/** `Type.field` for each field named like a secret that is neither in SECRET_FIELDS nor in NOT_SECRET. */
function unclassified(events: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  for (const [type, fields] of events) {
    const secret = new Set(
      ((SECRET_FIELDS as Record<string, readonly string[]>)[type] ?? []).map(
        (path) => path.split('.').at(-1)!,
      ),
    );
    const known = NOT_SECRET[type] ?? {};
    for (const field of fields)
      if (SECRET_LIKE.test(field) && !secret.has(field) && !(field in known))
        found.push(`${type}.${field}`);
  }
  return found;
}

t.test('every field of an event type named like a secret is classified', async (t) => {
  const files = sourceFiles(domainRoot);
  const events = eventTypes(files);
  t.ok(events.size > 40, `read ${events.size} event types from ${files.length} files of domain/`);
  for (const type of Object.keys(SECRET_FIELDS)) t.ok(events.has(type), `${type} is declared`);
  t.same(
    [...events.get('UserRegistered')!].filter((name) => SECRET_LIKE.test(name)).sort(),
    ['codeHash', 'passwordHash'],
    'the fields of the named types an event uses are read too',
  );
  t.same(
    unclassified(events),
    [],
    'each is in SECRET_FIELDS (domain/shared/publicEvent.ts) or in NOT_SECRET here, with the reason',
  );
});

t.test('the guard notices a new event type with an unclassified secret', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'events-'));
  writeFileSync(
    join(dir, 'webhook.ts'),
    [
      '/** An endpoint. */',
      "export type WebhookCreated = Event<'WebhookCreated', { webhookId: string; signing: SigningKey; createdAt: string }>;",
      'export type SigningKey = { secretSealed: string; version: number };',
    ].join('\n'),
  );
  t.same(unclassified(eventTypes([join(dir, 'webhook.ts')])), ['WebhookCreated.secretSealed']);
});
