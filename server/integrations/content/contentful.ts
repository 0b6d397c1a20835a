/**
 * A read-only client of Contentful's Content Delivery API for the landing content: the entries of a
 * content type, with their linked entries and assets resolved (`include=2`). Asset links become the
 * file's url (Contentful hands out protocol-relative ones: `https:` is put in front), entry links
 * become the linked entry's fields, and a rich-text field becomes Markdown text.
 */
import type { ContentItem } from './content.types.ts';

export type ContentfulOptions = {
  spaceId: string;
  accessToken: string;
  /** `https://cdn.contentful.com` unless CONTENTFUL_BASE_URL says otherwise (tests use a local server). */
  baseUrl: string;
  environment: string;
  /** A request that takes longer fails. */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

type Link = { sys: { type: 'Link'; linkType: string; id: string } };
type Entity = { sys: { id: string; type?: string }; fields?: Record<string, unknown> };
type EntriesAnswer = { items?: Entity[]; includes?: { Entry?: Entity[]; Asset?: Entity[] } };

/** How deep linked entries are followed; deeper links are left out (and so are cycles). */
const MAX_DEPTH = 3;

export const DEFAULT_CONTENTFUL_TIMEOUT_MS = 5000;

export function createContentfulSource(options: ContentfulOptions) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONTENTFUL_TIMEOUT_MS;
  const base = options.baseUrl.replace(/\/+$/, '');

  return {
    /** The entries of a content type, mapped; throws when Contentful cannot be read or has none. */
    async entries(contentType: string): Promise<ContentItem[]> {
      const url =
        `${base}/spaces/${encodeURIComponent(options.spaceId)}/environments/${encodeURIComponent(options.environment)}` +
        `/entries?content_type=${encodeURIComponent(contentType)}&include=2`;
      const response = await doFetch(url, {
        headers: { authorization: `Bearer ${options.accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok)
        throw new Error(`Contentful answered ${response.status} for content type ${contentType}`);
      const answer = (await response.json()) as EntriesAnswer;
      const items = Array.isArray(answer.items) ? answer.items : [];
      if (items.length === 0)
        throw new Error(`Contentful has no entries of content type ${contentType}`);
      const resolve = resolver(answer);
      return items.map((item) => resolve.fields(item, 0));
    },
  };
}

export type ContentfulSource = ReturnType<typeof createContentfulSource>;

const isLink = (value: unknown): value is Link =>
  typeof value === 'object' &&
  value !== null &&
  (value as Link).sys?.type === 'Link' &&
  typeof (value as Link).sys.id === 'string';

const isRichText = (value: unknown): value is RichNode =>
  typeof value === 'object' && value !== null && (value as RichNode).nodeType === 'document';

/** `//images.ctfassets.net/…` → `https://images.ctfassets.net/…`. */
export const withProtocol = (url: string): string => (url.startsWith('//') ? `https:${url}` : url);

function resolver(answer: EntriesAnswer) {
  const byId = (entities: Entity[] | undefined) =>
    new Map((entities ?? []).map((entity) => [entity.sys.id, entity]));
  const assets = byId(answer.includes?.Asset);
  // A linked entry may also be one of the items themselves.
  const entries = byId([...(answer.items ?? []), ...(answer.includes?.Entry ?? [])]);

  const value = (raw: unknown, depth: number): unknown => {
    if (Array.isArray(raw))
      return raw.map((element) => value(element, depth)).filter((element) => element !== undefined);
    if (isLink(raw)) {
      if (raw.sys.linkType === 'Asset') {
        const url = (assets.get(raw.sys.id)?.fields?.file as { url?: unknown } | undefined)?.url;
        return typeof url === 'string' ? withProtocol(url) : undefined;
      }
      const entry = entries.get(raw.sys.id);
      return entry && depth < MAX_DEPTH ? fields(entry, depth + 1) : undefined;
    }
    if (isRichText(raw)) return richTextToMarkdown(raw);
    return raw;
  };

  const fields = (entity: Entity, depth: number): ContentItem => {
    const mapped: ContentItem = {};
    for (const [name, raw] of Object.entries(entity.fields ?? {})) {
      const resolved = value(raw, depth);
      if (resolved !== undefined) mapped[name] = resolved;
    }
    return mapped;
  };

  return { fields };
}

type RichNode = {
  nodeType: string;
  value?: string;
  marks?: { type: string }[];
  content?: RichNode[];
  data?: { uri?: string };
};

/** Contentful rich text as Markdown: headings, paragraphs, lists, bold, italics and links; embeds are left out. */
export function richTextToMarkdown(document: RichNode): string {
  const inline = (node: RichNode): string => {
    if (node.nodeType === 'text') {
      const marks = new Set((node.marks ?? []).map((mark) => mark.type));
      const text = node.value ?? '';
      if (text.trim() === '') return text;
      return marks.has('bold') ? `**${text}**` : marks.has('italic') ? `_${text}_` : text;
    }
    const text = (node.content ?? []).map(inline).join('');
    if (node.nodeType === 'hyperlink' && node.data?.uri) return `[${text}](${node.data.uri})`;
    return text;
  };
  const block = (node: RichNode): string[] => {
    const heading = /^heading-(\d)$/.exec(node.nodeType);
    if (heading) return [`${'#'.repeat(Number(heading[1]))} ${inline(node)}`];
    switch (node.nodeType) {
      case 'paragraph':
        return [inline(node)];
      case 'unordered-list':
      case 'ordered-list':
        return [
          (node.content ?? [])
            .map(
              (item, index) =>
                `${node.nodeType === 'ordered-list' ? `${index + 1}.` : '-'} ${(item.content ?? []).map(inline).join(' ')}`,
            )
            .join('\n'),
        ];
      case 'blockquote':
        return (node.content ?? []).map((child) => `> ${inline(child)}`);
      case 'hr':
        return ['---'];
      default:
        return [];
    }
  };
  return (document.content ?? [])
    .flatMap(block)
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}
