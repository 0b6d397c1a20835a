import { apiGet } from '../../api/http.ts';

export interface VehicleCount {
  type: number;
  count: number;
}

export interface CarrierDocuments {
  mcAuthority: string | null;
  certificateOfInsurance: string | null;
  w9Form: string | null;
  noticeOfAssignment: string | null;
}

/** An ELD service of the organization (GET organization-services). */
export interface OrganizationService {
  id: number | string;
  name: string;
  description?: string | null;
  status?: string | number | null;
  organizationServiceData?: { organizationServiceId?: number | string; id?: number | string; clientId?: string } | null;
}

/** GET /api/account: each section only where the caller may see it. */
export interface AccountAnswer {
  user?: { id: string; name: string; username: string; email: string; phone: string; role?: { id: number; name: string } };
  organization?: { id: string; name: string; type: string; status: number; statusName?: string; address: string; person: string; email: string; phone: string };
  shipper?: { insuredAmount: 1 | 2; signatureFileId: string | null };
  carrier?: {
    mcNumber: number | null;
    dotNumber: number | null;
    eldProvider: string | null;
    trucks: VehicleCount[];
    trailers: VehicleCount[];
    driverTeams: VehicleCount[];
    documents: Partial<CarrierDocuments>;
  };
  services?: OrganizationService[];
}

export const fetchAccount = (signal?: AbortSignal) => apiGet<AccountAnswer>('/account', { signal });
export const filePath = (fileId: string) => `/files/${encodeURIComponent(fileId)}`;
