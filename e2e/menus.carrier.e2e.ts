/** The carrier's menu: every route opens clean (e2e/menus.ts). */
import { menusJourney } from './menus.ts';

await menusJourney('carrier');
