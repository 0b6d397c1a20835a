// @postgres: the content cache in its table
import t from 'tap';
import { sql } from 'kysely';
import { openTestDatabase } from '../../testing/testDatabase.ts';
import { builtInContent } from './builtIn.ts';
import { createContentService } from './content.ts';
import { contentTypes } from './content.types.ts';
import { createContentfulSource } from './contentful.ts';
import { createContentStore } from './contentStore.ts';
import { sampleContentful, startFakeContentful } from './testing.ts';

const database = await openTestDatabase();
t.teardown(() => database.drop());
const store = createContentStore(database.db);

const SPACE = 'demo-space';
const TOKEN = 'delivery-token-1';
const fake = await startFakeContentful({
  spaceId: SPACE,
  environment: 'master',
  token: TOKEN,
  answers: sampleContentful,
});
t.teardown(() => fake.close());

type Logged = { level: 'warn' | 'info'; message: string; details: Record<string, unknown> };
function setup(options: { timeoutMs?: number; token?: string } = {}) {
  const logged: Logged[] = [];
  const logger = {
    warn: (details: Record<string, unknown>, message: string) =>
      logged.push({ level: 'warn', message, details }),
    info: (details: Record<string, unknown>, message: string) =>
      logged.push({ level: 'info', message, details }),
  };
  let clock = Date.parse('2026-12-01T12:00:00Z');
  const contentful = createContentfulSource({
    spaceId: SPACE,
    accessToken: options.token ?? TOKEN,
    baseUrl: `${fake.baseUrl}/`,
    environment: 'master',
    timeoutMs: options.timeoutMs ?? 2000,
  });
  const service = createContentService({ store, contentful, logger, now: () => clock });
  return {
    service,
    logged,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

t.beforeEach(() => {
  fake.setMode({ kind: 'answer' });
  fake.requests.length = 0;
});

t.test(
  'without Contentful: the built-in content, written to the database at the first read',
  async (t) => {
    const service = createContentService({
      store,
      contentful: null,
      logger: { warn: () => {}, info: () => {} },
    });
    t.equal(service.source, 'builtIn');
    for (const type of contentTypes) {
      t.same(await service.get(type), builtInContent[type], `${type} is the built-in content`);
    }
    const { rows } = await sql<{
      type: string;
      n: number;
    }>`SELECT type, count(*)::int AS n FROM content_entries GROUP BY type ORDER BY type`.execute(
      database.db,
    );
    t.same(Object.fromEntries(rows.map((row) => [row.type, row.n])), {
      aboutCards: 3,
      featuresSection: 4,
      footer: 1,
      formSection: 1,
      hero: 1,
      partnersSection: 1,
      privacyPolicy: 1,
      videoSection: 1,
    });

    await sql`UPDATE content_entries SET fields = jsonb_set(fields, '{title}', '"Edited by the operator"') WHERE type = 'hero'`.execute(
      database.db,
    );
    t.equal(
      (await service.get('hero'))[0]!.title,
      'Edited by the operator',
      'an edited entry is served as it is, not replaced',
    );
    await sql`UPDATE content_entries SET fields = ${JSON.stringify(builtInContent.hero[0])}::jsonb WHERE type = 'hero'`.execute(
      database.db,
    );
    t.same(
      await Promise.all([store.read('formSection'), store.read('formSection')]),
      [builtInContent.formSection, builtInContent.formSection],
      'two readers at once: one copy',
    );
  },
);

t.test(
  'from Contentful: every item, links resolved, https: put before protocol-relative urls',
  async (t) => {
    const { service } = setup();
    t.equal(service.source, 'contentful');
    t.same(await service.get('hero'), [
      {
        title: 'Freight from Contentful',
        subtitle: 'Edited by marketing',
        image: 'https://images.ctfassets.net/space/hero.png',
      },
    ]);
    t.same(
      fake.requests[0],
      {
        path: `/spaces/${SPACE}/environments/master/entries`,
        contentType: 'hero',
        include: '2',
        authorization: `Bearer ${TOKEN}`,
      },
      'the delivery API path, the type, include=2 and the token',
    );
    t.same(await service.get('featuresSection'), [
      {
        tabName: 'Board',
        tabImage: 'https://images.ctfassets.net/space/board.png',
        tabDescription: 'The load board',
      },
      {
        tabName: 'Map',
        tabImage: 'https://images.ctfassets.net/space/map.png',
        tabDescription: 'The live map',
      },
    ]);
    t.same(
      await service.get('partnersSection'),
      [
        {
          title: 'Partners',
          images: [
            'https://images.ctfassets.net/space/p1.svg',
            'https://images.ctfassets.net/space/p2.svg',
          ],
        },
      ],
      'an unresolvable link is left out',
    );
    t.same(
      (await service.get('aboutCards')).map((card) => card.title),
      ['Post', 'Bid', 'Track'],
    );
    t.same(
      await service.get('videoSection'),
      [
        {
          title: 'Watch',
          subtitle: 'Two minutes',
          embeddedVideoUrl: '',
          poster: { caption: 'The tour', picture: 'https://images.ctfassets.net/space/poster.png' },
        },
      ],
      'a linked entry and its asset',
    );
    t.same(
      await service.get('privacyPolicy'),
      [
        {
          text: '## Privacy\n\nWe keep **little**. Ask [us](mailto:privacy@example.com).\n\n- Accounts\n- Positions',
        },
      ],
      'rich text as Markdown',
    );
  },
);

t.test('answers are kept for a minute', async (t) => {
  const { service, advance } = setup();
  await Promise.all([service.get('hero'), service.get('hero')]);
  await service.get('hero');
  t.equal(fake.requests.length, 1, 'one request for three reads, two of them at once');
  advance(59_000);
  await service.get('hero');
  t.equal(fake.requests.length, 1);
  advance(2_000);
  await service.get('hero');
  t.equal(fake.requests.length, 2, 'read again after a minute');
});

t.test('a 500: the built-in content, logged once until Contentful reads again', async (t) => {
  const { service, logged, advance } = setup();
  fake.setMode({ kind: 'status', status: 500 });
  t.same(await service.get('hero'), builtInContent.hero);
  advance(61_000);
  t.same(await service.get('hero'), builtInContent.hero);
  t.equal(fake.requests.length, 2, 'tried again after a minute');
  t.equal(
    logged.filter((entry) => entry.level === 'warn').length,
    1,
    'one warning for the failing streak',
  );
  t.match(logged[0], {
    level: 'warn',
    details: { contentType: 'hero', err: { message: /answered 500/ } },
  });

  fake.setMode({ kind: 'answer' });
  advance(61_000);
  t.equal(
    (await service.get('hero'))[0]!.title,
    'Freight from Contentful',
    'back to Contentful once it answers',
  );
  t.match(logged.at(-1), { level: 'info', message: /readable again/ });
});

t.test('a timeout, a refused token, a type with no entries: the built-in content', async (t) => {
  const slow = setup({ timeoutMs: 150 });
  fake.setMode({ kind: 'hang' });
  const started = Date.now();
  t.same(await slow.service.get('footer'), builtInContent.footer);
  t.ok(Date.now() - started < 1500, `gave up after ${Date.now() - started} ms`);
  t.match(slow.logged[0]?.details, { err: { name: /TimeoutError|AbortError/ } });

  fake.setMode({ kind: 'answer' });
  const refused = setup({ token: 'wrong-token' });
  t.same(await refused.service.get('hero'), builtInContent.hero);
  t.match(refused.logged[0]?.details, { err: { message: /answered 401/ } });

  const empty = setup();
  t.same(
    await empty.service.get('formSection'),
    builtInContent.formSection,
    'formSection has no entries in the space',
  );
  t.match(empty.logged[0]?.details, { err: { message: /no entries of content type formSection/ } });
});

t.test(
  'every image of the built-in content is an SVG shipped in client/public/content, pointing nowhere else',
  async (t) => {
    const { readFileSync, existsSync } = await import('node:fs');
    const urls = JSON.stringify(builtInContent)
      .match(/"\/content\/[^"]+"/g)!
      .map((quoted) => JSON.parse(quoted) as string);
    t.ok(
      urls.length >= 15,
      `${urls.length} images: hero, 3 cards, 4 tabs, 6 partners and the video`,
    );
    for (const url of new Set(urls)) {
      const file = new URL(`../../../client/public${url}`, import.meta.url);
      t.ok(existsSync(file), `${url} exists`);
      const svg = readFileSync(file, 'utf8');
      t.match(
        svg,
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*role="img"/,
        `${url} is an SVG image`,
      );
      t.match(svg, /<title[^>]*>[^<]+<\/title>/, `${url} has a title for screen readers`);
      t.notOk(
        /(?:href|src)="(?:https?:)?\/\//.test(svg) || /url\((?:https?:)?\/\//.test(svg),
        `${url} loads nothing from elsewhere`,
      );
    }
    t.equal(
      builtInContent.videoSection[0]!.embeddedVideoUrl,
      '/content/product-tour.svg',
      'the video is a local animation, never a video site',
    );
  },
);
