import { apiGet } from '../../api/http.ts';
import type { Account } from '../../../../domain/contracts/account.contract.ts';

export type {
  CarrierDocuments,
  CarrierProfileChanged,
  ShipperProfileChanged,
  VehicleCount,
} from '../../../../domain/contracts/account.contract.ts';
export type { MessageAnswer } from '../../../../domain/contracts/common.ts';

/** An ELD service of the organization (GET organization-services). */
export type { CatalogueEntry as OrganizationService } from '../../../../domain/contracts/services.contract.ts';

/** GET /api/account: each section only where the caller may see it. */
export type AccountAnswer = Account;

export const fetchAccount = (signal?: AbortSignal) => apiGet<AccountAnswer>('/account', { signal });
export { filePath } from '../../shared/storedFile.ts';
