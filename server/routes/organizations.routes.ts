import { GenericStatus } from '../../domain/catalog.ts';
import { SUPER_ADMIN } from '../../domain/permissions.ts';
import { usersOfOrganizations } from '../../projections/users/users.queries.ts';
import type { App } from '../http/routeContext.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { can, requireActor } from '../http/auth.ts';
import { assertFound, causeOf, latest } from '../identity/identity.ts';
import { organizationRoom } from '../realtime/rooms.ts';
import { organizationStatusContract } from '../../domain/contracts/users.contract.ts';

/**
 * The Superadmin activates and blocks organizations (docs/api.md "Organizations and access").
 * Blocking ends every member's sessions and sockets at once; their access tokens are refused from the
 * next request (the guard reads the organization's status); the marketplace and the offer lists hide
 * the organization's open loads and pending offers while it stays blocked.
 */
export async function organizationsRoutes(app: App) {
  const { identity, runner, tokens, realtime, organizationStatus } = app.platform;
  const { db } = app.platform.database;

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
      const actor = requireActor(request);
      const { id } = request.params;
      const { status } = request.body;
      const organization = assertFound(await identity.loadOrganization(id), 'Organization');
      const now = new Date().toISOString();
      const cause = causeOf(actor, request.id);
      const target = status === 'Active' ? GenericStatus.Active : GenericStatus.Blocked;
      let position: LogPosition | null = null;
      // Asking for the status it already has changes nothing and answers the same.
      if (organization.status !== target) {
        ({ position } = await identity.organization(
          {
            type: status === 'Active' ? 'ActivateOrganization' : 'BlockOrganization',
            data: { organizationId: id, now },
          },
          cause,
          now,
        ));
      }
      organizationStatus.forget(id);
      if (target === GenericStatus.Blocked) {
        await tokens.revokeAllForOrganization(id);
        realtime.disconnectRoom(organizationRoom(id));
      } else if (organization.status === GenericStatus.Pending) {
        // The vetting is done: whoever registered with the organization and waits with it is let in too.
        for (const user of await usersOfOrganizations(db, [id], GenericStatus.Pending)) {
          const activated = await identity
            .user({ type: 'ActivateUser', data: { userId: user.id, now } }, cause, now)
            .catch(() => null);
          position = latest(position, activated?.position ?? null);
        }
      }
      await runner.waitFor(['users', 'organizations'], position);
      return { id, status };
    },
  );
}
