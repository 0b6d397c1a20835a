import 'i18next';
import type en from './en.json';
import type marketplace from './areas/marketplace/en.json';
import type operations from './areas/operations/en.json';
import type publicScreens from './areas/public/en.json';
import type tourScreens from './areas/tours/en.json';
import type laneScreens from './areas/lanes/en.json';
import type podScreens from './areas/pod/en.json';
import type dockScreens from './areas/dock/en.json';
import type trustScreens from './areas/trust/en.json';
import type contactHoldScreens from './areas/contactHold/en.json';
import type accessorialScreens from './areas/accessorials/en.json';
import type carrierListScreens from './areas/carrierLists/en.json';
import type bookNowScreens from './areas/bookNow/en.json';
import type payerScreens from './areas/payers/en.json';
import type ediScreens from './areas/edi/en.json';
import type facilityScreens from './areas/facilities/en.json';
import type invoiceScreens from './areas/invoices/en.json';

// Translation keys are checked against the English file at compile time.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en &
        typeof marketplace &
        typeof operations &
        typeof publicScreens &
        typeof tourScreens &
        typeof laneScreens &
        typeof podScreens &
        typeof dockScreens &
        typeof trustScreens &
        typeof contactHoldScreens &
        typeof accessorialScreens &
        typeof carrierListScreens &
        typeof bookNowScreens &
        typeof payerScreens &
        typeof ediScreens &
        typeof facilityScreens &
        typeof invoiceScreens;
    };
  }
}
