/** Sign-in, token rotation, sign-out and the profiles of users. */
import { z } from 'zod';
import { organizationTypes } from '../catalog.ts';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export const OrganizationTypeSchema = z.enum(organizationTypes);

export const LoginBodySchema = z.object({
  email: z
    .string({ error: 'Please enter Email Address!' })
    .trim()
    .min(1, 'Please enter Email Address!')
    .max(254),
  password: z
    .string({ error: 'Please enter password!' })
    .min(1, 'Please enter password!')
    .max(1024),
  /** With two-factor on: a code of the authenticator app, or an unused recovery code. */
  code: z.string().trim().max(64).optional(),
});
export const RefreshBodySchema = z.object({
  refreshToken: z
    .string({ error: 'refreshToken is required' })
    .min(1, 'refreshToken is required')
    .max(200),
});

/** Mean rating per criterion name (two decimals); absent for an organization nobody rated yet. */
export const RatingsSchema = z.record(z.string(), z.number());

/** The signed-in user as the client keeps it: identity, organization and permissions. */
export const ProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    email: z.string(),
    role: z.object({ id: z.number().int(), name: z.string() }),
    roles: z.array(z.string()),
    /** Null for a Superadmin. */
    organization: z
      .object({
        id: z.string(),
        name: z.string(),
        type: OrganizationTypeSchema,
        status: z.number().int(),
      })
      .nullable(),
    permissions: z.array(z.number().int()),
    ratings: RatingsSchema.optional(),
    /**
     * `enabled`: the user signs in with a second factor; `mustEnrol`: the user is sent to enrol
     * (every other call answers 403 two_factor_enrolment_required); `organizationRequired`: the
     * organization requires two-factor of its members.
     */
    twoFactor: z
      .object({
        enabled: z.boolean(),
        mustEnrol: z.boolean(),
        organizationRequired: z.boolean(),
      })
      .optional(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof ProfileSchema>;

/** What another user may see of a user: name, organization, its ratings. */
export const PublicProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    organization: z
      .object({ id: z.string(), name: z.string(), type: OrganizationTypeSchema })
      .nullable(),
    ratings: RatingsSchema.optional(),
  })
  .meta({ id: 'PublicProfile' });
export type PublicProfile = z.infer<typeof PublicProfileSchema>;

/** An access token (lifetime `expiresIn` seconds) and its single-use refresh token. */
export const TokenPairSchema = z
  .object({ accessToken: z.string(), refreshToken: z.string(), expiresIn: z.number() })
  .meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof TokenPairSchema>;

export const SessionSchema = TokenPairSchema.extend({ user: ProfileSchema }).meta({
  id: 'Session',
});
export type Session = z.infer<typeof SessionSchema>;

export const loginContract = {
  body: LoginBodySchema,
  response: { 200: SessionSchema, ...errorAnswers(400, 401, 429) },
};
export const refreshTokenContract = {
  body: RefreshBodySchema,
  response: { 200: TokenPairSchema, ...errorAnswers(400, 401, 429) },
};
export const logoutContract = {
  body: RefreshBodySchema,
  response: { 204: z.null().describe('Signed out'), ...errorAnswers(400, 429) },
};
export const profileContract = {
  response: { 200: ProfileSchema, ...guardedErrors, ...errorAnswers(404) },
};
export const publicProfileContract = {
  params: IdParamsSchema,
  response: { 200: PublicProfileSchema, ...guardedErrors, ...errorAnswers(400, 404) },
};
