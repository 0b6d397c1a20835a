import type { Pod } from '../../../../domain/contracts/pod.contract.ts';
import { apiGet, apiGetBlob, apiPost } from '../../api/http.ts';

export type { Pod } from '../../../../domain/contracts/pod.contract.ts';
export type PodFile = Pod['files'][number];

/** What the driver's phone keeps until the proof reached the server. */
export interface PodDraft {
  /** Made on the phone: the server records a proof sent twice once. */
  id: string;
  /** The driver who took it: only that driver's session sends or sees it (a phone may be shared). */
  userId: string;
  tourId: string;
  receivedBy: string;
  note: string;
  photos: Blob[];
  signature: Blob | null;
  queuedAt: string;
}

const podPath = (tourId: string) => `/tours/${encodeURIComponent(tourId)}/pod`;

export const podApi = {
  list: (tourId: string) => apiGet<Pod[]>(podPath(tourId)),
  file: (fileId: string) => apiGetBlob(`/files/${encodeURIComponent(fileId)}`),
  send: (draft: PodDraft) => {
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        id: draft.id,
        receivedBy: draft.receivedBy,
        note: draft.note.trim() || undefined,
      }),
    );
    for (const [index, photo] of draft.photos.entries())
      form.append('photo', photo, `photo-${index + 1}.jpg`);
    if (draft.signature) form.append('signature', draft.signature, 'signature.png');
    return apiPost<{ id: string }>(podPath(draft.tourId), form);
  },
};
