/**
 * A local stand-in for Contentful's Content Delivery API, for tests: it answers
 * `GET /spaces/{space}/environments/{env}/entries?content_type=…&include=2` from a table of
 * answers, or with a status, or not at all (to run into the client's timeout). No network.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeContentfulMode =
  | { kind: 'answer' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' };
export type FakeContentfulRequest = {
  path: string;
  contentType: string | null;
  include: string | null;
  authorization: string | undefined;
};

export async function startFakeContentful(options: {
  spaceId: string;
  environment: string;
  token: string;
  answers: Record<string, unknown>;
}) {
  let mode: FakeContentfulMode = { kind: 'answer' };
  const requests: FakeContentfulRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const json = (response: ServerResponse, status: number, body: unknown) =>
    response
      .writeHead(status, { 'content-type': 'application/vnd.contentful.delivery.v1+json' })
      .end(JSON.stringify(body));

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push({
      path: url.pathname,
      contentType: url.searchParams.get('content_type'),
      include: url.searchParams.get('include'),
      authorization: request.headers.authorization,
    });
    if (mode.kind === 'hang') {
      hanging.add(response);
      return;
    }
    if (mode.kind === 'status')
      return json(response, mode.status, {
        sys: { type: 'Error', id: 'ServerError' },
        message: 'Something went wrong',
      });
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return json(response, 401, {
        sys: { type: 'Error', id: 'AccessTokenInvalid' },
        message: 'The access token you sent could not be found or is invalid.',
      });
    }
    if (url.pathname !== `/spaces/${options.spaceId}/environments/${options.environment}/entries`) {
      return json(response, 404, {
        sys: { type: 'Error', id: 'NotFound' },
        message: 'The resource could not be found.',
      });
    }
    const type = url.searchParams.get('content_type') ?? '';
    const answer = options.answers[type];
    if (!answer)
      return json(response, 200, {
        sys: { type: 'Array' },
        total: 0,
        skip: 0,
        limit: 100,
        items: [],
      });
    return json(response, 200, answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    setMode(next: FakeContentfulMode) {
      mode = next;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const link = (linkType: 'Asset' | 'Entry', id: string) => ({ sys: { type: 'Link', linkType, id } });
const asset = (id: string, url: string) => ({
  sys: { id, type: 'Asset' },
  fields: { title: id, file: { url, contentType: 'image/png' } },
});
const entry = (id: string, contentType: string, fields: Record<string, unknown>) => ({
  sys: { id, type: 'Entry', contentType: { sys: { id: contentType } } },
  fields,
});
const list = (items: unknown[], includes: Record<string, unknown[]> = {}) => ({
  sys: { type: 'Array' },
  total: items.length,
  skip: 0,
  limit: 100,
  items,
  includes,
});

/** Answers shaped as Contentful's: assets with protocol-relative urls, linked entries, rich text. */
export const sampleContentful = {
  hero: list(
    [
      entry('hero1', 'hero', {
        title: 'Freight from Contentful',
        subtitle: 'Edited by marketing',
        image: link('Asset', 'heroImage'),
      }),
    ],
    { Asset: [asset('heroImage', '//images.ctfassets.net/space/hero.png')] },
  ),
  aboutCards: list([
    entry('card1', 'aboutCards', { title: 'Post', description: 'Post a load' }),
    entry('card2', 'aboutCards', { title: 'Bid', description: 'Carriers bid' }),
    entry('card3', 'aboutCards', { title: 'Track', description: 'Follow the truck' }),
  ]),
  featuresSection: list(
    [
      entry('tab1', 'featuresSection', {
        tabName: 'Board',
        tabImage: link('Asset', 'board'),
        tabDescription: 'The load board',
      }),
      entry('tab2', 'featuresSection', {
        tabName: 'Map',
        tabImage: link('Asset', 'map'),
        tabDescription: 'The live map',
      }),
    ],
    {
      Asset: [
        asset('board', '//images.ctfassets.net/space/board.png'),
        asset('map', 'https://images.ctfassets.net/space/map.png'),
      ],
    },
  ),
  partnersSection: list(
    [
      entry('partners', 'partnersSection', {
        title: 'Partners',
        images: [link('Asset', 'p1'), link('Asset', 'p2'), link('Asset', 'missing')],
      }),
    ],
    {
      Asset: [
        asset('p1', '//images.ctfassets.net/space/p1.svg'),
        asset('p2', '//images.ctfassets.net/space/p2.svg'),
      ],
    },
  ),
  // A linked entry with an asset of its own: two levels of links, which include=2 resolves.
  videoSection: list(
    [
      entry('video', 'videoSection', {
        title: 'Watch',
        subtitle: 'Two minutes',
        embeddedVideoUrl: '',
        poster: link('Entry', 'poster'),
      }),
    ],
    {
      Entry: [
        entry('poster', 'poster', { caption: 'The tour', picture: link('Asset', 'posterImage') }),
      ],
      Asset: [asset('posterImage', '//images.ctfassets.net/space/poster.png')],
    },
  ),
  privacyPolicy: list([
    entry('privacy', 'privacyPolicy', {
      text: {
        nodeType: 'document',
        data: {},
        content: [
          {
            nodeType: 'heading-2',
            data: {},
            content: [{ nodeType: 'text', value: 'Privacy', marks: [], data: {} }],
          },
          {
            nodeType: 'paragraph',
            data: {},
            content: [
              { nodeType: 'text', value: 'We keep ', marks: [], data: {} },
              { nodeType: 'text', value: 'little', marks: [{ type: 'bold' }], data: {} },
              { nodeType: 'text', value: '. Ask ', marks: [], data: {} },
              {
                nodeType: 'hyperlink',
                data: { uri: 'mailto:privacy@example.com' },
                content: [{ nodeType: 'text', value: 'us', marks: [], data: {} }],
              },
              { nodeType: 'text', value: '.', marks: [], data: {} },
            ],
          },
          {
            nodeType: 'unordered-list',
            data: {},
            content: [
              {
                nodeType: 'list-item',
                data: {},
                content: [
                  {
                    nodeType: 'paragraph',
                    data: {},
                    content: [{ nodeType: 'text', value: 'Accounts', marks: [], data: {} }],
                  },
                ],
              },
              {
                nodeType: 'list-item',
                data: {},
                content: [
                  {
                    nodeType: 'paragraph',
                    data: {},
                    content: [{ nodeType: 'text', value: 'Positions', marks: [], data: {} }],
                  },
                ],
              },
            ],
          },
        ],
      },
    }),
  ]),
};
