import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import type { Platform } from './platform.ts';
import multipart from '@fastify/multipart';
import { permissionsFor } from '../domain/permissions.ts';
import { UnauthorizedError } from '../domain/shared/errors.ts';
import { authenticate, type Actor } from './http/auth.ts';
import { multipartLimits } from './integrations/files/uploads.ts';
import { accountRoutes } from './routes/account.routes.ts';
import { authRoutes } from './routes/auth.routes.ts';
import { platformRoutes } from './routes/platform.routes.ts';
import { registrationRoutes } from './routes/registration.routes.ts';
import { usersRoutes } from './routes/users.routes.ts';

export type App = FastifyInstance<any, any, any, Logger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}

/** Builds the HTTP app over a started platform; `listen` is the caller's. */
export async function buildApp(platform: Platform): Promise<App> {
  const { config } = platform;
  const app = Fastify({
    loggerInstance: platform.logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    disableRequestLogging: false,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('platform', platform);
  app.setErrorHandler(errorHandler);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // PrimeReact injects component styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // Same origin only, unless CORS_ORIGINS lists others.
  await app.register(cors, { origin: config.corsOrigins.length ? config.corsOrigins : false, credentials: false });
  await app.register(rateLimit, { max: Number(process.env.RATE_LIMIT_PER_MINUTE || 1200), timeWindow: '1 minute' });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Freight marketplace API', version: '0.1.0', description: 'Loads, offers, contracts, tours and the audit trail.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(multipart, { limits: multipartLimits });
  app.decorateRequest('actor', null);
  app.decorateRequest('authError', null);
  app.addHook('onRequest', authenticate(async (token): Promise<Actor> => {
    const claims = platform.tokens.verifyAccess(token);
    // Logout revokes the session's family: its access tokens stop within the family cache's few seconds.
    if (!(await platform.tokens.isFamilyActive(claims.sid))) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return { userId: claims.sub, organizationId: claims.org, roleId: claims.role as Actor['roleId'], permissions: permissionsFor(claims.role as Actor['roleId']), sessionId: claims.sid };
  }));

  await app.register(platformRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(registrationRoutes, { prefix: '/api' });
  await app.register(usersRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api' });

  const index = path.join(config.clientDir, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, { root: config.clientDir, wildcard: true, index: false, maxAge: '1h', immutable: false });
    app.get('/', { schema: { hide: true } }, (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  } else {
    app.log.warn({ clientDir: config.clientDir }, 'client is not built: run `npm run build:client`');
  }
  app.setNotFoundHandler(notFoundHandler(existsSync(index)));
  return app;
}
