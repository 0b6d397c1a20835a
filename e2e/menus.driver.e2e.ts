/** The driver's menu: every route opens clean (e2e/menus.ts). */
import { menusJourney } from './menus.ts';

await menusJourney('driver');
