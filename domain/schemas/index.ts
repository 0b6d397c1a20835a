/** Every zod schema shared by the client forms and the server routes. */
export * from './carrierProfile.schema.ts';
export * from './fields.ts';
export * from './load.schema.ts';
export * from './observedTime.ts';
export * from './organization.schema.ts';
export * from './phone.ts';
export * from './pin.ts';
export * from './registration.schema.ts';
export * from './user.schema.ts';
export * from './saneTime.ts';
