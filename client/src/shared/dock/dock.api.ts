import type {
  DockLinkCreated,
  DockRelease,
  DockView,
  ReleaseCode,
} from '../../../../domain/contracts/dockRelease.contract.ts';
import { apiDelete, apiGet, apiPost } from '../../api/http.ts';

export type { DockLinkCreated, DockRelease, DockView, ReleaseCode };

const tourPath = (tourId: string) => `/tours/${encodeURIComponent(tourId)}`;

/** Who comes to the dock: the driver's release code, the shipper's dock links, the dock's page. */
export const dockApi = {
  releaseCode: (tourId: string) => apiGet<ReleaseCode>(`${tourPath(tourId)}/release-code`),
  createLink: (tourId: string, email?: string) =>
    apiPost<DockLinkCreated>(`${tourPath(tourId)}/dock-link`, email ? { email } : {}),
  revokeLink: (tourId: string, token: string) =>
    apiDelete<null>(`${tourPath(tourId)}/dock-link/${encodeURIComponent(token)}`),
  view: (token: string) => apiGet<DockView>(`/dock/${encodeURIComponent(token)}`, { auth: false }),
  release: (token: string, code: string, tractorNumber: string) =>
    apiPost<DockRelease>(
      `/dock/${encodeURIComponent(token)}/release`,
      { code, ...(tractorNumber ? { tractorNumber } : {}) },
      { auth: false },
    ),
};
