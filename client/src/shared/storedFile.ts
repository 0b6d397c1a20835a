import { apiGetBlob, messageOf } from '../api/http.ts';
import { notify } from '../state/common.ts';

/** The path of a stored file (a document, a signature) in the API. */
export const filePath = (fileId: string) => `/files/${encodeURIComponent(fileId)}`;

/** Opens a stored file in a new tab, fetched with the bearer token; a failure shows in a snackbar. */
export async function openStoredFile(fileId: string): Promise<void> {
  try {
    const blob = await apiGetBlob(filePath(fileId));
    const url = URL.createObjectURL(blob);
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    notify('error', messageOf(error));
  }
}
