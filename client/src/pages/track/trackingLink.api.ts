import type {
  ShareCreated,
  SharedStop,
  SharedTrack,
} from '../../../../domain/contracts/trackingLink.contract.ts';
import { apiDelete, apiGet, apiPost } from '../../api/http.ts';

export type { ShareCreated, SharedStop, SharedTrack };

/** The hours a link can last, as the share dialog offers them (the API takes 1 to 168). */
export const SHARE_HOURS = [4, 24, 72, 168] as const;

export const trackingLinkApi = {
  share: (tourId: string, expiresInHours: number, email?: string) =>
    apiPost<ShareCreated>(`/tours/${encodeURIComponent(tourId)}/share`, {
      expiresInHours,
      ...(email ? { email } : {}),
    }),
  revoke: (tourId: string, token: string) =>
    apiDelete<null>(`/tours/${encodeURIComponent(tourId)}/share/${encodeURIComponent(token)}`),
  track: (token: string) =>
    apiGet<SharedTrack>(`/shared/track/${encodeURIComponent(token)}`, { auth: false }),
};
