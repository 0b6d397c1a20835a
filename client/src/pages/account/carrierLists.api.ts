import { apiGet, apiPut } from '../../api/http.ts';
import type {
  CarrierChoice,
  CarrierPreferencesAnswer,
} from '../../../../domain/contracts/carrierPreferences.contract.ts';

export type { CarrierChoice, CarrierPreferencesAnswer };

/** docs/api.md "Preferred and blocked carriers": the shipper's two lists and the carriers to choose from. */
export const fetchCarrierLists = (signal?: AbortSignal) =>
  Promise.all([
    apiGet<CarrierPreferencesAnswer>('/carriers/preferences', { signal }),
    apiGet<CarrierChoice[]>('/carriers/choices', { signal }),
  ]);
export const saveCarrierLists = (lists: CarrierPreferencesAnswer) =>
  apiPut<CarrierPreferencesAnswer>('/carriers/preferences', lists);
