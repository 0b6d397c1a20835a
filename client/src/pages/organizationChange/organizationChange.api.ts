import type { ContactChangeCancelled } from '../../../../domain/contracts/organizationContactChange.contract.ts';
import { apiPost } from '../../api/http.ts';

/** The old contact's link: cancels the held change of the organization's contact (no sign-in). */
export const cancelContactChange = (token: string) =>
  apiPost<ContactChangeCancelled>(
    `/organizations/changes/${encodeURIComponent(token)}/cancel`,
    {},
    { auth: false },
  );
