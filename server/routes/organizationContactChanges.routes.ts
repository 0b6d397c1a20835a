/**
 * The old contact's link that cancels a held change of the organization's contact (no sign-in;
 * docs/api.md "Organizations and access"). An unknown token, and a change already cancelled,
 * replaced or applied, answer the same 404. 10 tries a minute per client.
 */
import { contactChangeCancelContract } from '../../domain/contracts/organizationContactChange.contract.ts';
import { cancelContactChangeByToken } from '../commands/organizationContactChanges.ts';
import type { App } from '../http/routeContext.ts';

export async function organizationContactChangeRoutes(app: App) {
  const { platform } = app;

  app.post(
    '/organizations/changes/:token/cancel',
    {
      schema: {
        tags: ['account'],
        summary:
          "The old contact cancels a pending change of the organization's contact e-mail or phone (the link mailed to it; no sign-in)",
        ...contactChangeCancelContract,
      },
      config: { public: true, rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { position } = await cancelContactChangeByToken(
        platform,
        request.params.token,
        request.id,
        new Date().toISOString(),
      );
      await platform.runner.waitFor(['organizationContactChanges'], position);
      reply.header('cache-control', 'no-store');
      return { cancelled: true as const };
    },
  );
}
