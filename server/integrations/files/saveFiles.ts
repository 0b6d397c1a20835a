import type { Kysely } from 'kysely';
import type { DB } from '../../../storage/schema.ts';
import { createFileStore } from './files.ts';
import type { UploadedFile } from './uploads.ts';

/** Stores the uploaded files of an organization (all or none); answers their ids by field name. */
export async function saveFiles<K extends string>(
  db: Kysely<DB>,
  organizationId: string,
  files: Partial<Record<K, UploadedFile>>,
): Promise<{ ids: Partial<Record<K, string>>; discard: () => Promise<void> }> {
  const store = createFileStore(db);
  const entries = Object.entries(files).filter(
    (entry): entry is [K, UploadedFile] => entry[1] !== undefined,
  );
  const saved = await store.saveAll(
    entries.map(([kind, file]) => ({ organizationId, kind, mime: file.mime, data: file.buffer })),
  );
  const ids = Object.fromEntries(entries.map(([kind], index) => [kind, saved[index]])) as Partial<
    Record<K, string>
  >;
  return {
    ids,
    // When the command that would point at the files fails, they are removed again.
    discard: async () => {
      for (const id of saved) await store.delete(id).catch(() => undefined);
    },
  };
}
