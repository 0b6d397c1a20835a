import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { rateLimitPerMinute } from './config.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { registerStorableText } from './http/storableText.ts';
import { securityHeadersHook } from './http/securityHeaders.ts';
import { registerClientAssets } from './http/clientAssets.ts';
import { registerMetrics } from './http/metricsRoute.ts';
import { openapiDocument, openapiTransform, openapiTransformObject } from './http/openapi.ts';
import type { Platform } from './platform.ts';
import type { App, InventoriedRoute } from './http/routeContext.ts';
import multipart from '@fastify/multipart';
import fastifyJwt from '@fastify/jwt';
import { permissionsFor } from '../domain/permissions.ts';
import { UnauthorizedError } from '../domain/shared/errors.ts';
import { authenticate, ORGANIZATION_BLOCKED, type Actor } from './http/auth.ts';
import { isBlockedStatus } from './auth/organizationStatus.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { createConsistency, LOG_POSITION_HEADER } from './http/consistency.ts';
import { multipartLimits } from './integrations/files/uploads.ts';
import { accountRoutes } from './routes/account.routes.ts';
import { twoFactorRoutes } from './routes/twoFactor.routes.ts';
import { authRoutes } from './routes/auth.routes.ts';
import { platformRoutes } from './routes/platform.routes.ts';
import { registrationRoutes } from './routes/registration.routes.ts';
import { usersRoutes } from './routes/users.routes.ts';
import { userListsRoutes } from './routes/userLists.routes.ts';
import { organizationsRoutes } from './routes/organizations.routes.ts';
import { fmcsaRoutes } from './routes/fmcsa.routes.ts';
import { placesRoutes } from './routes/places.routes.ts';
import { historyRoutes } from './routes/history.routes.ts';
import { podRoutes } from './routes/pod.routes.ts';
import { claimRoutes } from './routes/claims.routes.ts';
import { invoiceRoutes } from './routes/invoices.routes.ts';
import { loadBoardRoutes } from './routes/loads.board.routes.ts';
import { loadCommandRoutes } from './routes/loads.commands.routes.ts';
import { loadDetailRoutes } from './routes/loads.detail.routes.ts';
import { loadImportRoutes } from './routes/loads.import.routes.ts';
import { offerBoardRoutes } from './routes/offers.board.routes.ts';
import { offerCommandRoutes } from './routes/offers.commands.routes.ts';
import { offerDocumentRoutes } from './routes/offers.documents.routes.ts';
import { tourBoardRoutes } from './routes/tours.board.routes.ts';
import { tourChatRoutes } from './routes/tours.chat.routes.ts';
import { tourCourseRoutes } from './routes/tours.course.routes.ts';
import { tourRatingRoutes } from './routes/tours.rating.routes.ts';
import { tourTrackingRoutes } from './routes/tours.tracking.routes.ts';
import { trackingLinkRoutes } from './routes/trackingLink.routes.ts';
import { dockPageRoutes } from './routes/dockPage.routes.ts';
import { organizationContactChangeRoutes } from './routes/organizationContactChanges.routes.ts';
import { dockReleaseRoutes } from './routes/dockRelease.routes.ts';
import { servicesRoutes } from './routes/services.routes.ts';
import { contentRoutes } from './routes/content.routes.ts';
import { eventsRoutes } from './routes/events.routes.ts';
import { searchesRoutes } from './routes/searches.routes.ts';
import { carrierPreferencesRoutes } from './routes/carrierPreferences.routes.ts';
import { facilityRoutes } from './routes/facilities.routes.ts';
import { projectionsRoutes } from './routes/projections.routes.ts';
import { webhooksRoutes } from './routes/webhooks.routes.ts';
import { ediRoutes } from './routes/edi.routes.ts';
import { laneRatesRoutes } from './routes/laneRates.routes.ts';
import { payersRoutes } from './routes/payers.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';

export type { App, InventoriedRoute };

/** Builds the HTTP app over a started platform; `listen` is the caller's. */
export async function buildApp(platform: Platform): Promise<App> {
  const { config } = platform;
  const app = Fastify({
    loggerInstance: platform.logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    // The specification calls `tours/{id}/rate/` with a trailing slash.
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('platform', platform);
  // Registered before any route, so the inventory misses none; a guard found in neither hook is `null`.
  const routeInventory: InventoriedRoute[] = [];
  app.decorate('routeInventory', routeInventory);
  app.addHook('onRoute', (route) => {
    const guardIn = (hooks: unknown) =>
      ([hooks].flat() as unknown[]).find(
        (hook): hook is { permissions: readonly number[] } =>
          typeof hook === 'function' &&
          Array.isArray((hook as { permissions?: unknown }).permissions),
      );
    const early = guardIn(route.onRequest);
    const guard = early ?? guardIn(route.preHandler);
    const guardHook = early ? 'onRequest' : guard ? 'preHandler' : null;
    for (const method of [route.method].flat()) {
      routeInventory.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        permissions: guard ? [...guard.permissions] : null,
        guardHook,
        schema: route.schema ?? null,
        whilePending: route.config?.whilePending === true,
      });
    }
  });
  app.setErrorHandler(errorHandler);
  // NUL and lone surrogates in any parameter, query or JSON body: a 400 naming the field before any schema runs.
  registerStorableText(app);

  // The security headers, built once per set (document, API, asset) and set as a list: @fastify/helmet
  // built helmet's middleware (and parsed the CSP) on every request (server/http/securityHeaders.ts).
  app.addHook('onRequest', securityHeadersHook(config));
  // Same origin only, unless CORS_ORIGINS lists others: without them the plugin is not registered at
  // all (it would answer no origin, yet run a hook on every request).
  if (config.corsOrigins.length) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: false,
      exposedHeaders: [LOG_POSITION_HEADER],
    });
  }
  await app.register(rateLimit, { max: rateLimitPerMinute(), timeWindow: '1 minute' });
  // Request durations by route pattern, and GET /metrics (outside the rate limit): before every route.
  registerMetrics(app);
  await app.register(swagger, {
    openapi: openapiDocument,
    transform: openapiTransform,
    transformObject: openapiTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(multipart, { limits: multipartLimits });
  // Access tokens are signed and verified by @fastify/jwt, registered with the token service's pinned options.
  await app.register(fastifyJwt, platform.tokens.jwtOptions);
  platform.tokens.useJwt(app.jwt);
  app.decorateRequest('actor', null);
  app.decorateRequest('authError', null);
  app.addHook(
    'onRequest',
    authenticate(async (request): Promise<Actor> => {
      const claims = await platform.tokens.verifyRequest(request);
      // A blocked organization's tokens, issued before the block too, stop here (within the status cache's few seconds elsewhere);
      // asked first, so that its members read why.
      const organizationStatus = claims.org
        ? await platform.organizationStatus.statusOf(claims.org)
        : null;
      if (claims.org && isBlockedStatus(organizationStatus))
        throw new UnauthorizedError(ORGANIZATION_BLOCKED);
      // Logout revokes the session's family: its access tokens stop within the family cache's few seconds.
      if (!(await platform.tokens.isFamilyActive(claims.sid)))
        throw new UnauthorizedError('Your session has ended. Please sign in again.');
      return {
        userId: claims.sub,
        organizationId: claims.org,
        roleId: claims.role as Actor['roleId'],
        permissions: permissionsFor(claims.role as Actor['roleId']),
        sessionId: claims.sid,
        ...(organizationStatus === null ? {} : { organizationStatus }),
        ...(claims.enr === 1 ? { mustEnrol: true } : {}),
      };
    }),
  );
  // A request carrying a consistency token (or after its session's own write) reads read models that have reached it.
  const consistency = createConsistency(platform.runner);
  app.decorate('consistency', consistency);
  app.addHook('preHandler', consistency.hook);
  // Idempotency-Key on the commands that create things: before the routes, so each of them gets the hooks.
  registerIdempotency(app);

  await app.register(platformRoutes, { prefix: '/api' });
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(registrationRoutes, { prefix: '/api' });
  await app.register(usersRoutes, { prefix: '/api' });
  await app.register(userListsRoutes, { prefix: '/api' });
  await app.register(organizationsRoutes, { prefix: '/api' });
  await app.register(fmcsaRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api' });
  await app.register(twoFactorRoutes, { prefix: '/api' });
  await app.register(placesRoutes, { prefix: '/api' });
  // Loads: posting and editing, cancelling, extending, the shipper's table, the marketplace, one
  // load, the CSV import and the saved locations.
  await app.register(
    async (api: App) => {
      loadCommandRoutes(api);
      loadBoardRoutes(api);
      loadImportRoutes(api);
      loadDetailRoutes(api);
    },
    { prefix: '/api' },
  );
  // Offers: the carriers' bids, the shipper's answers, the contract and the rate confirmation.
  await app.register(
    async (api: App) => {
      offerBoardRoutes(api);
      offerCommandRoutes(api);
      offerDocumentRoutes(api);
    },
    { prefix: '/api' },
  );
  // Tours: the tables, assignment, statuses, timeline, positions, tracking, chat and ratings.
  await app.register(
    async (api: App) => {
      tourBoardRoutes(api);
      tourRatingRoutes(api);
      tourTrackingRoutes(api);
      tourCourseRoutes(api);
      tourChatRoutes(api);
    },
    { prefix: '/api' },
  );
  await app.register(trackingLinkRoutes, { prefix: '/api' });
  await app.register(dockReleaseRoutes, { prefix: '/api' });
  await app.register(dockPageRoutes, { prefix: '/api' });
  await app.register(organizationContactChangeRoutes, { prefix: '/api' });
  await app.register(servicesRoutes, { prefix: '/api' });
  await app.register(historyRoutes, { prefix: '/api' });
  await app.register(podRoutes, { prefix: '/api' });
  await app.register(claimRoutes, { prefix: '/api' });
  await app.register(invoiceRoutes, { prefix: '/api' });
  await app.register(contentRoutes, { prefix: '/api' });
  await app.register(eventsRoutes, { prefix: '/api' });
  // socket.io shares the HTTP server: attached once the app is ready, closed before the server closes.
  app.addHook('onReady', () => platform.realtime.attach(app.server));
  app.addHook('preClose', () => platform.realtime.close());
  await app.register(searchesRoutes, { prefix: '/api' });
  await app.register(carrierPreferencesRoutes, { prefix: '/api' });
  await app.register(facilityRoutes, { prefix: '/api' });
  await app.register(projectionsRoutes, { prefix: '/api' });
  await app.register(webhooksRoutes, { prefix: '/api' });
  await app.register(ediRoutes, { prefix: '/api' });
  await app.register(laneRatesRoutes, { prefix: '/api' });
  await app.register(payersRoutes, { prefix: '/api' });

  // The built client: precompressed, cached by hash, outside the API's rate limit (server/http/clientAssets.ts).
  const clientBuilt = await registerClientAssets(app, config.clientDir);
  if (!clientBuilt)
    app.log.warn(
      { clientDir: config.clientDir },
      'client is not built: run `npm run build:client`',
    );
  app.setNotFoundHandler(notFoundHandler(clientBuilt));
  return app;
}
