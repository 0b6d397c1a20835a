import type en from '../i18n/en.json';

/** A route's title in the locale files. */
export type RouteTitleKey = `routes.${keyof typeof en.routes}`;
/** A menu entry's label in the locale files. */
export type MenuLabelKey = `menu.${keyof typeof en.menu}`;
