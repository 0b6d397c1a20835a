import type { App } from '../http/routeContext.ts';
import { isTourParty } from '../commands/marketplace.ts';
import { tourBoardRoutes } from './tours.board.routes.ts';
import { tourChatRoutes } from './tours.chat.routes.ts';
import { tourCourseRoutes } from './tours.course.routes.ts';
import { tourRatingRoutes } from './tours.rating.routes.ts';
import { tourTrackingRoutes } from './tours.tracking.routes.ts';

export { tourAnswer } from './tourAnswers.ts';

/** Tours: the tables, assignment, statuses, timeline, positions, tracking, chat and ratings. */
export async function toursRoutes(app: App) {
  tourBoardRoutes(app);
  tourRatingRoutes(app);
  tourTrackingRoutes(app);
  tourCourseRoutes(app);
  tourChatRoutes(app);
}

export { isTourParty };
