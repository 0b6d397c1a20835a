/**
 * User administration: activation and blocking, the users table, the shippers and carriers lists,
 * creating and editing users and organizations, the role pick lists, an organization's status.
 */
import { z } from 'zod';
import { createUserBodySchema, updateUserBodySchema } from '../schemas/index.ts';
import { errorAnswers, guardedErrors, IdParamsSchema, tableAnswerOf } from './common.ts';
import { OrganizationTypeSchema } from './auth.contract.ts';
import { carrierDocumentParts } from './account.contract.ts';

/** `{id, message}`: what a change of one user or organization answers. */
export const ChangedSchema = z
  .object({ id: z.string(), message: z.string() })
  .meta({ id: 'Changed' });
export type Changed = z.infer<typeof ChangedSchema>;

/** A user activated or blocked: its new status. */
export const UserStatusChangedSchema = ChangedSchema.extend({
  status: z.number().int(),
  statusName: z.string(),
}).meta({ id: 'UserStatusChanged' });
export type UserStatusChanged = z.infer<typeof UserStatusChangedSchema>;

const RowActions = z.array(z.number().int());

/** A row of the users table. */
export const UserRowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    phone: z.string(),
    roleId: z.number().int(),
    role: z.string(),
    organizationId: z.string().nullable(),
    organization: z
      .object({ id: z.string(), name: z.string(), type: OrganizationTypeSchema })
      .nullable(),
    emailConfirmed: z.boolean(),
    status: z.number().int(),
    statusName: z.string(),
    createdAt: z.string(),
    actions: RowActions,
  })
  .meta({ id: 'UserRow' });
export type UserRow = z.infer<typeof UserRowSchema>;

/**
 * A row of users/list/shippers and users/list/carriers: an organization with its first user. `status`
 * is the organization's own (what its Activate and Block actions change); the carrier fields come
 * with carriers, the shipper fields with shippers.
 */
export const OrganizationRowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: OrganizationTypeSchema,
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    person: z.string(),
    organizationStatus: z.number().int(),
    organizationStatusName: z.string(),
    user: z
      .object({
        id: z.string(),
        name: z.string(),
        email: z.string(),
        username: z.string(),
        phone: z.string(),
        status: z.number().int(),
      })
      .nullable(),
    mcNumber: z.number().nullable().optional(),
    dotNumber: z.number().nullable().optional(),
    eldProvider: z.string().nullable().optional(),
    documents: z.record(z.string(), z.string().nullable()).optional(),
    insuredAmount: z.number().nullable().optional(),
    signatureFileId: z.string().nullable().optional(),
    createdAt: z.string(),
    status: z.number().int(),
    statusName: z.string(),
    actions: RowActions,
  })
  .meta({ id: 'OrganizationRow' });
export type OrganizationRow = z.infer<typeof OrganizationRowSchema>;

export const UsersTableSchema = tableAnswerOf(UserRowSchema).meta({ id: 'UsersTable' });
export type UsersTable = z.infer<typeof UsersTableSchema>;
export const OrganizationsTableSchema = tableAnswerOf(OrganizationRowSchema).meta({
  id: 'OrganizationsTable',
});

export const RoleChoiceSchema = z
  .object({ id: z.number().int(), name: z.string() })
  .meta({ id: 'RoleChoice' });
export type RoleChoice = z.infer<typeof RoleChoiceSchema>;
export const OrganizationChoiceSchema = z
  .object({ id: z.string(), name: z.string(), type: OrganizationTypeSchema })
  .meta({ id: 'OrganizationChoice' });
export type OrganizationChoice = z.infer<typeof OrganizationChoiceSchema>;

export const DeleteDriverBodySchema = z.object({ id: z.uuid('Not a valid id') });

/**
 * POST users/organization is multipart, read by the handler (files checked by their bytes, `data`
 * validated naming each wrong field); the schema documents the parts and lets the streamed body
 * (null here) through to that check.
 */
export const CreateOrganizationFormSchema = z
  .object({
    data: z.string().meta({
      description:
        'The organization as JSON: type, name, organizationContactInfo, and mcNumber, dotNumber, eldProvider, trucks, trailers, driverTeams (Carrier) or insuredAmount (Shipper)',
    }),
    ...carrierDocumentParts,
  })
  .nullish();

export const ORGANIZATION_STATUS_MESSAGE = "status is 'Active' or 'Blocked'";
export const OrganizationStatusBodySchema = z.object({
  status: z.enum(['Active', 'Blocked'], { error: ORGANIZATION_STATUS_MESSAGE }),
});
export const OrganizationStatusSchema = z
  .object({ id: z.string(), status: z.enum(['Active', 'Blocked']) })
  .meta({ id: 'OrganizationStatus' });
export type OrganizationStatus = z.infer<typeof OrganizationStatusSchema>;

const byId = { params: IdParamsSchema };
export const activateUserContract = {
  ...byId,
  response: { 200: UserStatusChangedSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
};
export const blockUserContract = {
  ...byId,
  response: { 200: UserStatusChangedSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
};
/** Querystring: the table protocol (`TableQuery`). */
export const usersTableContract = {
  response: { 200: UsersTableSchema, ...guardedErrors, ...errorAnswers(400) },
};
export const organizationsTableContract = {
  response: { 200: OrganizationsTableSchema, ...guardedErrors, ...errorAnswers(400) },
};
export const createUserContract = {
  body: createUserBodySchema,
  response: { 201: ChangedSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
};
export const updateUserContract = {
  ...byId,
  body: updateUserBodySchema,
  response: { 200: ChangedSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
};
export const deleteDriverContract = {
  body: DeleteDriverBodySchema,
  response: {
    204: z.null().meta({ description: 'Deleted' }),
    ...guardedErrors,
    ...errorAnswers(400, 404, 409),
  },
};
export const createOrganizationContract = {
  consumes: ['multipart/form-data'],
  body: CreateOrganizationFormSchema,
  response: { 201: ChangedSchema, ...guardedErrors, ...errorAnswers(400, 409, 413, 415) },
};
export const organizationChoicesContract = {
  response: { 200: z.array(OrganizationChoiceSchema), ...guardedErrors },
};
export const roleChoicesContract = {
  response: { 200: z.array(RoleChoiceSchema), ...guardedErrors },
};
export const organizationStatusContract = {
  ...byId,
  body: OrganizationStatusBodySchema,
  response: { 200: OrganizationStatusSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
};
