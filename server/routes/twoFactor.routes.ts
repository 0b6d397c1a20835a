/**
 * Two-factor sign-in of the signed-in user: a new secret to scan (nothing is on until confirmed),
 * its confirmation with a first code (the recovery codes are answered here only), and turning it
 * off with the password and a code. Setup and confirmation stay open to a session that must enrol.
 */
import {
  twoFactorConfirmContract,
  twoFactorDisableContract,
  twoFactorSetupContract,
} from '../../domain/contracts/twoFactor.contract.ts';
import { confirmTwoFactor, disableTwoFactor, startTwoFactorSetup } from '../commands/twoFactor.ts';
import { can, requireCaller } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';

export async function twoFactorRoutes(app: App) {
  const { platform } = app;
  const address = (request: { socket: { remoteAddress?: string } }) =>
    request.socket.remoteAddress ?? 'unknown';

  app.post(
    '/account/2fa/setup',
    {
      schema: {
        tags: ['account'],
        summary: 'Begin two-factor enrolment: a new secret and its QR code (off until confirmed)',
        ...twoFactorSetupContract,
      },
      config: { whilePending: true, whileEnrolling: true },
      onRequest: can(),
    },
    async (request) => {
      const { secret, otpauthUrl, qrSvg } = await startTwoFactorSetup(
        platform,
        requireCaller(request),
        new Date().toISOString(),
      );
      return { secret, otpauthUrl, qrSvg };
    },
  );

  app.post(
    '/account/2fa/confirm',
    {
      schema: {
        tags: ['account'],
        summary:
          'Turn two-factor sign-in on with a first code; answers the ten recovery codes once',
        ...twoFactorConfirmContract,
      },
      config: { whilePending: true, whileEnrolling: true },
      onRequest: can(),
    },
    async (request) => {
      const { recoveryCodes } = await confirmTwoFactor(
        platform,
        requireCaller(request),
        request.body.code,
        address(request),
        new Date().toISOString(),
      );
      return { recoveryCodes };
    },
  );

  app.delete(
    '/account/2fa',
    {
      schema: {
        tags: ['account'],
        summary: 'Turn two-factor sign-in off (the password and a code)',
        ...twoFactorDisableContract,
      },
      config: { whilePending: true },
      onRequest: can(),
    },
    async (request, reply) => {
      await disableTwoFactor(
        platform,
        requireCaller(request),
        request.body,
        address(request),
        new Date().toISOString(),
      );
      return reply.code(204).send(null);
    },
  );
}
