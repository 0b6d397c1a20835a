import type { App } from '../http/routeContext.ts';
import { loadBoardRoutes } from './loads.board.routes.ts';
import { loadCommandRoutes } from './loads.commands.routes.ts';
import { loadDetailRoutes } from './loads.detail.routes.ts';
import { loadImportRoutes } from './loads.import.routes.ts';

/** The read models a shipper's or carrier's next screen reads after a load command. */
export const MARKETPLACE_VIEWS = ['marketplace'] as const;

/**
 * Loads: posting and editing (with every rule of the specification), cancelling, extending the
 * offer, the shipper's table, the carriers' marketplace, one load, the CSV import and the saved
 * locations.
 */
export async function loadsRoutes(app: App) {
  loadCommandRoutes(app);
  loadBoardRoutes(app);
  loadImportRoutes(app);
  loadDetailRoutes(app);
}
