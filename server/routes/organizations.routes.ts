import { SUPER_ADMIN } from '../../domain/permissions.ts';
import { changeOrganizationStatus } from '../commands/organizations.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireCaller } from '../http/auth.ts';
import { organizationStatusContract } from '../../domain/contracts/users.contract.ts';

/**
 * The Superadmin activates and blocks organizations (docs/api.md "Organizations and access").
 * Blocking ends every member's sessions and sockets at once; their access tokens are refused from the
 * next request (the guard reads the organization's status); the marketplace and the offer lists hide
 * the organization's open loads and pending offers while it stays blocked.
 */
export async function organizationsRoutes(app: App) {
  const { platform } = app;

  app.put(
    '/organizations/:id/status',
    {
      schema: {
        tags: ['users'],
        summary:
          "Activate or block an organization (Superadmin); a block ends its members' sessions",
        ...organizationStatusContract,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async (request) => {
      const { id } = request.params;
      const { status } = request.body;
      const { position } = await changeOrganizationStatus(
        platform,
        requireCaller(request),
        id,
        status,
        new Date().toISOString(),
      );
      await platform.runner.waitFor(['users', 'organizations'], position);
      return { id, status };
    },
  );
}
