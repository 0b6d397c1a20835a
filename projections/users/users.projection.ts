import { sql } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import type { UserEvent } from '../../domain/users/user.ts';
import { defineProjection } from '../projection.ts';

/** Users as the lists, the account screen and sign-in look-ups read them. One row per user. */
export const usersProjection = defineProjection({
  name: 'users',
  version: 1,
  tables: ['users_view'],
  handles: [
    'UserRegistered',
    'SignupConfirmed',
    'UserActivated',
    'UserBlocked',
    'UserUpdated',
    'PasswordResetRequested',
    'PasswordReset',
    'UserDeleted',
    'SignupLapsed',
  ],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as UserEvent;
      switch (event.type) {
        case 'UserRegistered': {
          const d = event.data;
          await sql`INSERT INTO users_view (id, email, username, name, phone, role_id, organization_id, status, email_confirmed, created_at, updated_at)
            VALUES (${d.userId}, ${d.email}, ${d.username}, ${d.name}, ${d.phone}, ${d.roleId}, ${d.organizationId}, ${d.status}, ${d.confirmation === null}, ${d.registeredAt}, ${d.registeredAt})
            ON CONFLICT (id) DO NOTHING`.execute(trx);
          break;
        }
        case 'SignupConfirmed':
          await sql`UPDATE users_view SET email_confirmed = true, updated_at = ${event.data.confirmedAt} WHERE id = ${event.data.userId}`.execute(
            trx,
          );
          break;
        case 'UserActivated':
          await sql`UPDATE users_view SET status = ${GenericStatus.Active}, updated_at = ${event.data.activatedAt} WHERE id = ${event.data.userId}`.execute(
            trx,
          );
          break;
        case 'UserBlocked':
          await sql`UPDATE users_view SET status = ${GenericStatus.Blocked}, updated_at = ${event.data.blockedAt} WHERE id = ${event.data.userId}`.execute(
            trx,
          );
          break;
        case 'UserUpdated': {
          const d = event.data;
          await sql`UPDATE users_view SET email = ${d.email}, username = ${d.username}, name = ${d.name}, phone = ${d.phone}, updated_at = ${d.updatedAt} WHERE id = ${d.userId}`.execute(
            trx,
          );
          break;
        }
        case 'PasswordResetRequested':
          await sql`UPDATE users_view SET reset_code_hash = ${event.data.resetCodeHash} WHERE id = ${event.data.userId}`.execute(
            trx,
          );
          break;
        case 'PasswordReset':
          await sql`UPDATE users_view SET reset_code_hash = NULL, updated_at = ${event.data.resetAt} WHERE id = ${event.data.userId}`.execute(
            trx,
          );
          break;
        case 'UserDeleted':
        case 'SignupLapsed':
          await sql`DELETE FROM users_view WHERE id = ${event.data.userId}`.execute(trx);
          break;
        default:
          break;
      }
    }
  },
});
