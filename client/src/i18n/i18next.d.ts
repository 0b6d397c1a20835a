import 'i18next';
import type en from './en.json' with { type: 'json' };
import type marketplace from './areas/marketplace/en.json' with { type: 'json' };
import type operations from './areas/operations/en.json' with { type: 'json' };
import type publicScreens from './areas/public/en.json' with { type: 'json' };
import type tourScreens from './areas/tours/en.json' with { type: 'json' };
import type laneScreens from './areas/lanes/en.json' with { type: 'json' };
import type podScreens from './areas/pod/en.json' with { type: 'json' };

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
        typeof podScreens;
    };
  }
}
