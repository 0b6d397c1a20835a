// @postgres: content and leads stored in their tables
import t from 'tap';
import pino from 'pino';
import { buildApp, type App } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { startPlatform, type Platform } from '../platform.ts';
import { allProjections } from '../../projections/index.ts';
import { leadIdFor } from '../../domain/leads/lead.decide.ts';
import { leadStream } from '../../domain/leads/lead.types.ts';
import { builtInContent } from '../integrations/content/builtIn.ts';
import { contentTypes } from '../integrations/content/content.types.ts';
import { leadsProjection } from '../../projections/leads/leads.projection.ts';
import { sampleContentful, startFakeContentful } from '../integrations/content/testing.ts';
import { withContractCheck } from '../testing/contract.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { openTestDatabase } from '../testing/testDatabase.ts';
import { THANK_YOU } from './content.routes.ts';

/** The real app with the leads read model running (whether or not projections/index.ts lists it yet). */
async function startApp(
  overrides: Partial<Config> = {},
): Promise<{ app: App; platform: Platform; close: () => Promise<void> }> {
  const database = await openTestDatabase();
  const config = loadConfig(
    { ...process.env, DATABASE_URL: database.url ?? '' },
    { inMemory: true, demo: false, logLevel: 'silent', prettyLogs: false, ...overrides },
  );
  if (!database.url) await database.close();
  const projections = allProjections.some((projection) => projection.name === leadsProjection.name)
    ? allProjections
    : [...allProjections, leadsProjection];
  const platform = await startPlatform(config, pino({ level: 'silent' }), { projections });
  // Its answers checked against the published document, as startTestApp's are.
  const { app, contract } = await withContractCheck(() => buildApp(platform));
  await app.ready();
  return {
    app,
    platform,
    async close() {
      await app.close();
      await platform.close();
      if (database.url) await database.drop();
      contract?.assertClean();
    },
  };
}

const { app, platform, close } = await startApp({ adminEmail: 'owner@freight.local' });
t.teardown(close);
const visitor = requester(app)(null);

/** The fields of an item of each type, as the specification names them (section 3). */
const specFields: Record<string, string[]> = {
  hero: ['image', 'subtitle', 'title'],
  aboutCards: ['description', 'image', 'title'],
  videoSection: ['embeddedVideoUrl', 'subtitle', 'title'],
  featuresSection: ['tabDescription', 'tabImage', 'tabName'],
  formSection: ['actionButtonText', 'inputPlaceholder', 'subtitle', 'title'],
  partnersSection: ['images', 'title'],
  footer: [
    'aboutCompany',
    'actionButtonText',
    'contactEmail',
    'contactLocation',
    'contactPhone',
    'contactTitle',
    'copyright',
    'privacyText',
    'termsText',
  ],
  privacyPolicy: ['text'],
};

t.test('GET content/{type}: the built-in landing content of each type, to anyone', async (t) => {
  for (const type of contentTypes) {
    const response = await visitor.get(`/api/content/${type}`);
    t.equal(response.status, 200, type);
    t.match(response.headers['cache-control'], /max-age=60/);
    const items = response.body as Record<string, unknown>[];
    t.same(items, builtInContent[type], `${type}: the built-in items`);
    for (const item of items)
      t.same(
        Object.keys(item).sort(),
        specFields[type],
        `${type}: the specification's field names`,
      );
  }
  t.equal((await visitor.get('/api/content/aboutCards')).body.length, 3, 'three about cards');
  t.equal((await visitor.get('/api/content/featuresSection')).body.length, 4, 'four feature tabs');
  const hero = (await visitor.get('/api/content/hero')).body[0];
  t.match(hero, { title: /freight/i, image: '/content/hero-truck-highway.svg' });
  const privacy = (await visitor.get('/api/content/privacyPolicy')).body[0].text as string;
  for (const topic of [/account/i, /documents/i, /positions/i, /how long we keep it/i, /contact/i])
    t.match(privacy, topic, `the privacy policy covers ${topic}`);

  const unknown = await visitor.get('/api/content/testimonials');
  t.equal(unknown.status, 404, 'an unknown type');
  t.match(unknown.body.message, /Unknown content type testimonials/);
});

const REQUIRED = 'Please enter your e-mail address, or another way to reach you';
const TOO_LONG =
  'Please enter at most 200 characters: your e-mail address, or another way to reach you';

t.test(
  'POST sendInfoToAdmin: an empty or too long text is refused naming the field and what it expects',
  async (t) => {
    const events = await watchEvents(platform.store);
    for (const [body, what] of [
      [{}, 'no email field'],
      [{ email: ' \n\t ' }, 'blank'],
      [{ email: 42 }, 'not a text'],
    ] as const) {
      const refused = await visitor.post('/api/sendInfoToAdmin', body);
      t.equal(refused.status, 400, what);
      t.match(
        refused.body,
        {
          message: REQUIRED,
          code: 'interest_contact_required',
          errors: [{ path: 'email', message: REQUIRED, code: 'interest_contact_required' }],
        },
        `${what}: names the field and what to enter`,
      );
    }
    const noBody = await visitor.post('/api/sendInfoToAdmin');
    t.equal(noBody.status, 400);
    t.match(noBody.body.errors, [{ path: 'email', message: REQUIRED }], 'no body at all too');
    const long = await visitor.post('/api/sendInfoToAdmin', {
      email: `${'a'.repeat(191)}@x.example`,
    });
    t.equal(long.status, 400, '201 characters');
    t.match(long.body, {
      code: 'interest_contact_too_long',
      errors: [{ path: 'email', message: TOO_LONG, code: 'interest_contact_too_long' }],
    });
    t.notMatch(JSON.stringify(long.body), /went wrong/i, 'never the generic message');
    await events.expect(t, [], { message: 'the refused texts appended' });
    t.same(await platform.mailer.listOutbox(), [], 'nor e-mailed anyone');
  },
);

t.test(
  'POST sendInfoToAdmin: what the visitor typed is taken with no format check, as one trimmed line',
  async (t) => {
    const events = await watchEvents(platform.store);
    const phone = await visitor.post('/api/sendInfoToAdmin', {
      email: '  Call Rosa\r\n at (555) 555-0142 ',
    });
    t.equal(phone.status, 200, phone.text);
    t.same(phone.body, { message: THANK_YOU });
    const leadId = leadIdFor('call rosa at (555) 555-0142');
    await events.expect(t, [
      {
        type: 'InterestRegistered',
        stream: leadStream(leadId),
        data: { leadId, email: 'call rosa at (555) 555-0142' },
      },
    ]);
    const [mail] = await platform.mailer.listOutbox();
    t.match(mail, {
      to: 'owner@freight.local',
      subject: 'New interest from the landing page: call rosa at (555) 555-0142',
      text: /\ncall rosa at \(555\) 555-0142\n/,
    });
    const longest = `${'b'.repeat(190)}@x.example`;
    t.equal(longest.length, 200);
    t.equal(
      (await visitor.post('/api/sendInfoToAdmin', { email: longest })).status,
      200,
      '200 characters are taken',
    );
    await events.expect(t, [{ type: 'InterestRegistered', data: { email: longest } }]);
  },
);

t.test(
  'POST sendInfoToAdmin: a valid address is stored as a lead and e-mailed to the administrator',
  async (t) => {
    const events = await watchEvents(platform.store);

    const mailsBefore = (await platform.mailer.listOutbox()).length;
    const ok = await visitor.post('/api/sendInfoToAdmin', {
      email: 'Dispatch@Bluestem-Freight.example',
    });
    t.equal(ok.status, 200, ok.text);
    t.same(ok.body, { message: THANK_YOU });

    const leadId = leadIdFor('dispatch@bluestem-freight.example');
    await events.expect(
      t,
      [
        {
          type: 'InterestRegistered',
          stream: leadStream(leadId),
          data: { leadId, email: 'dispatch@bluestem-freight.example' },
          metadata: { userId: null, organizationId: null },
        },
      ],
      { message: 'the event, in the lead stream, of no signed-in user' },
    );
    const rows = await platform.database.db
      .selectFrom('leads_view')
      .selectAll()
      .where('id', '=', leadId)
      .execute();
    t.match(
      rows,
      [{ id: leadId, email: 'dispatch@bluestem-freight.example' }],
      'and the read model',
    );
    const mail = await platform.mailer.listOutbox();
    t.equal(mail.length, mailsBefore + 1);
    t.match(mail[0], {
      to: 'owner@freight.local',
      subject: /dispatch@bluestem-freight\.example/,
      text: /landing page/,
    });

    const again = await visitor.post('/api/sendInfoToAdmin', {
      email: ' dispatch@bluestem-freight.EXAMPLE ',
    });
    t.equal(again.status, 200, 'the same address again is thanked');
    await events.expect(t, [], { message: 'but not stored twice' });
    t.equal(
      (await platform.store.readStream(leadStream(leadId))).events.length,
      1,
      'its lead stream keeps the one event',
    );
    t.equal((await platform.mailer.listOutbox()).length, mailsBefore + 1, 'nor e-mailed twice');
  },
);

t.test('POST sendInfoToAdmin: five a minute per address', async (t) => {
  const email = 'limits@copperline.example';
  const events = await watchEvents(platform.store);
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    statuses.push(
      (
        await visitor.post('/api/sendInfoToAdmin', {
          email: attempt % 2 ? email.toUpperCase() : email,
        })
      ).status,
    );
  }
  t.same(statuses, [200, 200, 200, 200, 200, 429]);
  await events.expect(
    t,
    [{ type: 'InterestRegistered', stream: leadStream(leadIdFor(email)), data: { email } }],
    { message: 'the first of the five stores the lead, the others and the sixth nothing' },
  );
  const limited = await visitor.post('/api/sendInfoToAdmin', { email });
  t.equal(limited.status, 429);
  t.ok(
    Number(limited.headers['retry-after']) > 0,
    `retry after ${limited.headers['retry-after']} s`,
  );
  t.match(limited.body.message, /Too many requests for this address/);
  await events.expect(t, [], { message: 'the limited request appended' });
  t.equal(
    (await visitor.post('/api/sendInfoToAdmin', { email: 'other@copperline.example' })).status,
    200,
    'another address is not held back',
  );
  await events.expect(t, [
    {
      type: 'InterestRegistered',
      stream: leadStream(leadIdFor('other@copperline.example')),
      data: { email: 'other@copperline.example' },
    },
  ]);
});

t.test('with Contentful configured: its content; the built-in content when it fails', async (t) => {
  const fake = await startFakeContentful({
    spaceId: 'space-1',
    environment: 'staging',
    token: 'token-1',
    answers: sampleContentful,
  });
  t.teardown(() => fake.close());
  const withContentful = await startApp({
    contentfulSpaceId: 'space-1',
    contentfulAccessToken: 'token-1',
    contentfulBaseUrl: fake.baseUrl,
    contentfulEnvironment: 'staging',
  });
  t.teardown(withContentful.close);
  const visitorThere = requester(withContentful.app)(null);

  t.same((await visitorThere.get('/api/content/hero')).body, [
    {
      title: 'Freight from Contentful',
      subtitle: 'Edited by marketing',
      image: 'https://images.ctfassets.net/space/hero.png',
    },
  ]);
  t.match(fake.requests[0], {
    path: '/spaces/space-1/environments/staging/entries',
    contentType: 'hero',
    include: '2',
    authorization: 'Bearer token-1',
  });
  t.same(
    (await visitorThere.get('/api/content/footer')).body,
    builtInContent.footer,
    'a type the space lacks: built-in',
  );
  fake.setMode({ kind: 'status', status: 500 });
  const failing = await visitorThere.get('/api/content/featuresSection');
  t.equal(failing.status, 200, "a failing Contentful is not the visitor's problem");
  t.same(failing.body, builtInContent.featuresSection);
  t.same(
    (await visitorThere.get('/api/content/hero')).body[0].title,
    'Freight from Contentful',
    'a read Contentful answer is kept for a minute',
  );
});
