/**
 * Where the landing content comes from: Contentful when CONTENTFUL_SPACE_ID and
 * CONTENTFUL_ACCESS_TOKEN are set, else the built-in content in the database. Contentful answers
 * are kept for a minute; when Contentful cannot be read, the failure is logged once (until it reads
 * again) and the built-in content is served, also for a minute, so a broken space does not slow
 * every visitor down.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { createContentStore, type ContentStore } from './contentStore.ts';
import { createContentfulSource, type ContentfulSource } from './contentful.ts';
import type { ContentItem, ContentType } from './content.types.ts';
import type { DB } from '../../../storage/schema.ts';

export const CONTENT_CACHE_MS = 60_000;

export type ContentLogger = {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
};

export type ContentService = {
  source: 'contentful' | 'builtIn';
  get(type: ContentType): Promise<ContentItem[]>;
};

export function createContentService(options: {
  store: ContentStore;
  contentful: ContentfulSource | null;
  logger: ContentLogger;
  cacheMs?: number;
  now?: () => number;
}): ContentService {
  const { store, contentful, logger } = options;
  const cacheMs = options.cacheMs ?? CONTENT_CACHE_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<ContentType, { until: number; items: Promise<ContentItem[]> }>();
  const failing = new Set<ContentType>();

  const fromContentful = async (
    source: ContentfulSource,
    type: ContentType,
  ): Promise<ContentItem[]> => {
    try {
      const items = await source.entries(type);
      if (failing.delete(type)) logger.info({ contentType: type }, 'Contentful is readable again');
      return items;
    } catch (error) {
      if (!failing.has(type)) {
        failing.add(type);
        logger.warn(
          { err: error, contentType: type },
          'Contentful could not be read: serving the built-in landing content',
        );
      }
      return store.read(type);
    }
  };

  return {
    source: contentful ? 'contentful' : 'builtIn',
    async get(type) {
      if (!contentful) return store.read(type);
      const cached = cache.get(type);
      if (cached && cached.until > now()) return cached.items;
      // Concurrent first readers share one request.
      const items = fromContentful(contentful, type);
      cache.set(type, { until: now() + cacheMs, items });
      items.catch(() => cache.delete(type));
      return items;
    },
  };
}

/** The content service of a running server, from its configuration. */
export function contentServiceFor(
  config: Config,
  db: Kysely<DB>,
  logger: ContentLogger,
  overrides: { timeoutMs?: number; fetch?: typeof fetch } = {},
): ContentService {
  const contentful =
    config.contentfulSpaceId && config.contentfulAccessToken
      ? createContentfulSource({
          spaceId: config.contentfulSpaceId,
          accessToken: config.contentfulAccessToken,
          baseUrl: config.contentfulBaseUrl,
          environment: config.contentfulEnvironment,
          ...overrides,
        })
      : null;
  return createContentService({ store: createContentStore(db), contentful, logger });
}
