import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { RefreshTokensTable } from '../../storage/serverTables.ts';
import type { SessionUser } from './accessTokens.ts';

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** 32 random bytes in base64url, unpadded. */
const REFRESH_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new refresh token row in `familyId`; returns the token, which is never stored. */
export function refreshRow(
  user: SessionUser,
  familyId: string,
  sessionStartedAt: Date,
  createdAt: Date,
) {
  const token = randomBytes(32).toString('base64url');
  const row: RefreshTokensTable = {
    id: randomUUID(),
    family_id: familyId,
    user_id: user.id,
    organization_id: user.organizationId,
    role_id: user.roleId,
    token_hash: hashToken(token),
    session_started_at: sessionStartedAt,
    created_at: createdAt,
    expires_at: new Date(createdAt.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    used_at: null,
    revoked_at: null,
  };
  return { token, row };
}

/** The refresh token's row, looked up by its hash (a token of the wrong shape is not looked up). */
export const findByToken = (db: Kysely<DB>, token: string) =>
  REFRESH_SHAPE.test(token)
    ? db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst()
    : Promise.resolve(undefined);
