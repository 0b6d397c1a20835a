/**
 * User fields with the specification's messages (section 5, "User sign-up" and "Account user edit"),
 * and the bodies of POST users, PUT users, PUT users/{id}, forgot-password and reset-password.
 */
import { z } from 'zod';
import { isRoleId, limits } from '../catalog.ts';
import { emailSchema, requiredText } from './fields.ts';
import { phoneSchema } from './phone.ts';
import {
  NAME_REQUIRED_MESSAGE,
  USERNAME_REQUIRED_MESSAGE,
  PASSWORD_REQUIRED_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  PASSWORDS_MUST_MATCH_MESSAGE,
  PASSWORDS_DID_NOT_MATCH_MESSAGE,
  ROLE_REQUIRED_MESSAGE,
  ORGANIZATION_ID_MESSAGE,
  RESET_CODE_REQUIRED_MESSAGE,
} from './messages.ts';

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  NAME_REQUIRED_MESSAGE,
  USERNAME_REQUIRED_MESSAGE,
  PASSWORD_REQUIRED_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  PASSWORDS_MUST_MATCH_MESSAGE,
  PASSWORDS_DID_NOT_MATCH_MESSAGE,
  ROLE_REQUIRED_MESSAGE,
  ORGANIZATION_ID_MESSAGE,
  RESET_CODE_REQUIRED_MESSAGE,
};

export const nameSchema = requiredText(NAME_REQUIRED_MESSAGE);
export const usernameSchema = requiredText(USERNAME_REQUIRED_MESSAGE);

/** Hashing a megabyte-long password costs the server; no one types more than this. */
export const PASSWORD_MAX_LENGTH = 200;
export const PASSWORD_TOO_LONG_MESSAGE = `A password can have at most ${PASSWORD_MAX_LENGTH} characters`;

/** Required, at least 8 characters, at most 200; not trimmed (spaces are part of a password). */
export const passwordSchema = z
  .string({ error: PASSWORD_REQUIRED_MESSAGE })
  .min(1, { error: PASSWORD_REQUIRED_MESSAGE, abort: true })
  .min(limits.passwordMinLength, { error: PASSWORD_TOO_SHORT_MESSAGE })
  .max(PASSWORD_MAX_LENGTH, { error: PASSWORD_TOO_LONG_MESSAGE });

/** Optional: absent or empty passes (an empty field means "no change"), else at least 8 characters. */
export const optionalPasswordSchema = z
  .string({ error: PASSWORD_TOO_SHORT_MESSAGE })
  .refine((value) => value === '' || value.length >= limits.passwordMinLength, {
    error: PASSWORD_TOO_SHORT_MESSAGE,
  })
  .refine((value) => value.length <= PASSWORD_MAX_LENGTH, { error: PASSWORD_TOO_LONG_MESSAGE })
  .optional();

export const userDetailsSchema = z.object({ name: nameSchema, phone: phoneSchema });

/** The sign-up user fields as the server receives them (docs/api.md, register/*): no confirmPassword. */
export const userSignUpBodyShape = {
  email: emailSchema,
  username: usernameSchema,
  password: passwordSchema,
  userDetails: userDetailsSchema,
};
export const userSignUpBodySchema = z.object(userSignUpBodyShape);
export type UserSignUpBody = z.infer<typeof userSignUpBodySchema>;

/** The sign-up user fields as the form holds them, with the retyped password. */
export const userSignUpFormSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    username: usernameSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: PASSWORDS_MUST_MATCH_MESSAGE }),
    phone: phoneSchema,
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: PASSWORDS_MUST_MATCH_MESSAGE,
    path: ['confirmPassword'],
    // Compare as soon as both are text, also while other fields are still invalid.
    when: ({ value }) =>
      typeof (value as { password?: unknown })?.password === 'string' &&
      typeof (value as { confirmPassword?: unknown })?.confirmPassword === 'string',
  });
export type UserSignUpForm = z.infer<typeof userSignUpFormSchema>;

const accountUserShape = {
  name: nameSchema,
  email: emailSchema,
  username: usernameSchema,
  oldPassword: optionalPasswordSchema,
  newPassword: optionalPasswordSchema,
  phone: phoneSchema,
};

/** PUT users (own account): empty or absent passwords mean "keep the password". */
export const updateAccountBodySchema = z.object(accountUserShape);
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;

export const roleIdSchema = z
  .number({ error: ROLE_REQUIRED_MESSAGE })
  .refine(isRoleId, { error: ROLE_REQUIRED_MESSAGE });

/** POST users (an administrator creates a user); `organizationId` is omitted for a Superadmin. */
export const createUserBodySchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  userDetails: userDetailsSchema,
  password: passwordSchema,
  roleId: roleIdSchema,
  organizationId: z.uuid({ error: ORGANIZATION_ID_MESSAGE }).nullish(),
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

/**
 * PUT users/{id} (an administrator edits a user); an empty or absent newPassword keeps the password.
 * `oldPassword`, the current password, is needed when the user edited is the caller and the
 * password or e-mail changes (the server checks it against the stored hash).
 */
export const updateUserBodySchema = z.object({
  email: emailSchema,
  name: nameSchema,
  phone: phoneSchema,
  newPassword: optionalPasswordSchema,
  oldPassword: z.string().max(1000).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** POST users/forgot-password. */
export const forgotPasswordBodySchema = z.object({ email: emailSchema });

/** POST users/reset-password: the code from the e-mailed link and the new password. */
export const resetPasswordBodySchema = z.object({
  code: requiredText(RESET_CODE_REQUIRED_MESSAGE),
  newPassword: passwordSchema,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;
