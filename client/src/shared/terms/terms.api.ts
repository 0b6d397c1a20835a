import { apiGet } from '../../api/http.ts';
import { type AccessorialTerms, defaultTermsOf } from './terms.ts';

/** The organization's default terms (GET /account), null when it has none or they cannot be read. */
export const fetchDefaultTerms = (): Promise<AccessorialTerms | null> =>
  apiGet<unknown>('/account')
    .then(defaultTermsOf)
    .catch(() => null);
