import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../storage/schema.ts';
import type { FilesTable } from '../../../storage/serverTables.ts';

/**
 * Document storage as rows of the same database: a file commits or rolls back with whatever refers
 * to it, backups need nothing extra, and every server process sees it. Files are at most 5 MiB.
 * A file is addressed by a random UUID, never by the client's file name.
 */
export type StoredFileMeta = {
  id: string;
  /** The organization that uploaded it. */
  organizationId: string;
  kind: string;
  /** What it belongs to beyond its organization (see fileAccess.ts): a load (its contract) or a tour. */
  loadId: string | null;
  tourId: string | null;
  mime: string;
  size: number;
  sha256: string;
  createdAt: Date;
};
export type StoredFile = StoredFileMeta & { data: Buffer };
export type NewFile = {
  organizationId: string;
  kind: string;
  mime: string;
  data: Buffer;
  loadId?: string | null;
  tourId?: string | null;
};
export type FileStore = ReturnType<typeof createFileStore>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `db` may be a transaction (`createFileStore(trx)`), so files are saved in the same commit as the
 * events or rows that point at them and a failure leaves no orphan.
 */
export function createFileStore(db: Kysely<DB>) {
  const files = db;

  const row = (file: NewFile): FilesTable => {
    if (!UUID.test(file.organizationId)) throw new Error('An organization id is a UUID');
    for (const id of [file.loadId, file.tourId])
      if (id && !UUID.test(id)) throw new Error('A load or tour id is a UUID');
    return {
      id: randomUUID(),
      organization_id: file.organizationId,
      kind: file.kind,
      load_id: file.loadId ?? null,
      tour_id: file.tourId ?? null,
      mime: file.mime,
      size: file.data.length,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      data: file.data,
      created_at: new Date(),
    };
  };

  return {
    /** Stores one file; answers its new id. */
    async save(file: NewFile): Promise<string> {
      const values = row(file);
      await files.insertInto('files').values(values).execute();
      return values.id;
    },

    /** Stores several files all or none; answers their ids in order. */
    async saveAll(list: NewFile[]): Promise<string[]> {
      if (list.length === 0) return [];
      const values = list.map(row);
      // A multi-row INSERT is one statement, hence atomic even outside a transaction.
      await files.insertInto('files').values(values).execute();
      return values.map((value) => value.id);
    },

    /** The file with its bytes, or null for an unknown (or malformed) id. Tenant checks are the caller's. */
    async get(id: string): Promise<StoredFile | null> {
      if (!UUID.test(id)) return null;
      const found = await files
        .selectFrom('files')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return found ? { ...meta(found), data: toBuffer(found.data) } : null;
    },

    /** The same without the bytes, for permission checks before a download. */
    async getMeta(id: string): Promise<StoredFileMeta | null> {
      if (!UUID.test(id)) return null;
      const found = await files
        .selectFrom('files')
        .select([
          'id',
          'organization_id',
          'kind',
          'load_id',
          'tour_id',
          'mime',
          'size',
          'sha256',
          'created_at',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      return found ? meta(found) : null;
    },

    async delete(id: string): Promise<boolean> {
      if (!UUID.test(id)) return false;
      const result = await files.deleteFrom('files').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

const meta = (row: Omit<FilesTable, 'data'>): StoredFileMeta => ({
  id: row.id,
  organizationId: row.organization_id,
  kind: row.kind,
  loadId: row.load_id,
  tourId: row.tour_id,
  mime: row.mime,
  size: Number(row.size),
  sha256: row.sha256,
  createdAt: new Date(row.created_at),
});

// pg answers bytea as a Buffer, PGlite as a plain Uint8Array.
const toBuffer = (data: Uint8Array) =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
