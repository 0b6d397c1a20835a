import { sql, type Kysely } from 'kysely';
import { builtInContent } from './builtIn.ts';
import type { ContentItem, ContentType } from './content.types.ts';
import type { DB } from '../../../storage/schema.ts';

/**
 * The landing content kept in the database (`content_entries`). A type with no rows yet gets the
 * built-in items at its first read; rows an operator edited afterwards are served as they are.
 */
export function createContentStore(db: Kysely<DB>) {
  const entries = db;

  const select = async (type: ContentType): Promise<ContentItem[]> => {
    const rows = await entries
      .selectFrom('content_entries')
      .select(['fields'])
      .where('type', '=', type)
      .orderBy('position')
      .execute();
    return rows.map(
      (row) =>
        (typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields) as ContentItem,
    );
  };

  return {
    async read(type: ContentType): Promise<ContentItem[]> {
      const stored = await select(type);
      if (stored.length > 0) return stored;
      // Two first readers at once both try; the primary key keeps one copy.
      const items = builtInContent[type] as ContentItem[];
      for (const [position, fields] of items.entries()) {
        await sql`INSERT INTO content_entries (type, position, fields) VALUES (${type}, ${position}, ${JSON.stringify(fields)}::jsonb)
          ON CONFLICT (type, position) DO NOTHING`.execute(db);
      }
      return select(type);
    },
  };
}

export type ContentStore = ReturnType<typeof createContentStore>;
