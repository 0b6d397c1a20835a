import t, { type Test } from 'tap';
import type { z } from 'zod';
import {
  carrierProfileBodySchema,
  carrierRegistrationSchema,
  checkDocument,
  checkSignature,
  confirmSignupBodySchema,
  createOrganizationDataSchema,
  createUserBodySchema,
  emailSchema,
  fileProblemStatus,
  optionalPhoneSchema,
  organizationContactSchema,
  phoneSchema,
  pinSchema,
  resetPasswordBodySchema,
  shipperProfileBodySchema,
  shipperRegistrationSchema,
  updateAccountBodySchema,
  updateUserBodySchema,
  userSignUpBodySchema,
  userSignUpFormSchema,
  US_PHONE_PATTERN,
} from './index.ts';

const PHONE_FORMAT =
  'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)';

/** Parses and asserts the first issue's exact message and path. */
const refuses = (
  t: Test,
  schema: z.ZodType,
  value: unknown,
  message: string,
  path: (string | number)[] = [],
) => {
  const result = schema.safeParse(value);
  if (result.success) return t.fail(`accepted ${JSON.stringify(value)}, expected "${message}"`);
  t.equal(result.error.issues[0].message, message, `${JSON.stringify(value)} -> ${message}`);
  t.same(result.error.issues[0].path, path, `path ${path.join('.')}`);
};
const accepts = (t: Test, schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  t.ok(
    result.success,
    `accepts ${JSON.stringify(value)}${result.success ? '' : `: ${result.error.issues[0].message}`}`,
  );
  return result.data as any;
};

const contactInfo = {
  address: '1 Main St, Chicago, IL',
  person: 'Ann Lee',
  email: 'ops@haul.example',
  phone: '(555) 555-5555',
};
const userBody = {
  email: 'ann@haul.example',
  username: 'ann',
  password: 'secret-pass',
  userDetails: { name: 'Ann Lee', phone: '555-555-5555' },
};
const fleet = {
  trucks: [{ type: 4, count: 2 }],
  trailers: [{ type: 15, count: 1 }],
  driverTeams: [{ type: 2, count: 1 }],
};
const carrierRegistration = {
  ...userBody,
  organization: { name: 'Haul Co', organizationContactInfo: contactInfo },
  mcNumber: 123456,
  dotNumber: 654321,
  ...fleet,
  acceptTerms: true,
};
const shipperRegistration = {
  ...userBody,
  organization: { name: 'Ship Co', organizationContactInfo: contactInfo },
  insuredAmount: 1,
  acceptTerms: true,
};

t.test('phone: the US pattern and its message', async (t) => {
  for (const phone of [
    '(555) 555-5555',
    '555-555-5555',
    '5555555555',
    '555.555.5555',
    '555 555 5555',
    '(555)555-5555',
    ' 555-555-5555 ',
  ])
    accepts(t, phoneSchema, phone);
  for (const phone of [
    '555-5555',
    '55555555555',
    '(555 555-5555',
    '555--555-5555',
    '555/555/5555',
    'abc-def-ghij',
    '+1 555 555 5555',
  ]) {
    refuses(t, phoneSchema, phone, PHONE_FORMAT);
  }
  refuses(t, phoneSchema, '', 'Please enter phone!');
  refuses(t, phoneSchema, undefined, 'Please enter phone!');
  t.equal(
    phoneSchema.safeParse('').error?.issues.length,
    1,
    'an empty phone gives the required message alone',
  );
  t.ok(US_PHONE_PATTERN.test('(555) 555-5555'));
  accepts(t, optionalPhoneSchema, undefined);
  accepts(t, optionalPhoneSchema, '');
  accepts(t, optionalPhoneSchema, '555 555 5555');
  refuses(t, optionalPhoneSchema, '555', PHONE_FORMAT);
});

t.test('email: required, then format', async (t) => {
  refuses(t, emailSchema, '', 'Please enter Email Address!');
  refuses(t, emailSchema, '   ', 'Please enter Email Address!');
  refuses(t, emailSchema, undefined, 'Please enter Email Address!');
  refuses(t, emailSchema, 'ann@', 'The Email you entered is not a valid format!');
  refuses(t, emailSchema, 'ann.haul.example', 'The Email you entered is not a valid format!');
  t.equal(accepts(t, emailSchema, ' ann@haul.example '), 'ann@haul.example', 'trimmed');
});

t.test('organization contact (Organisation form, PUT users/organization)', async (t) => {
  const valid = { ...contactInfo, name: 'Haul Co' };
  accepts(t, organizationContactSchema, valid);
  refuses(
    t,
    organizationContactSchema,
    { ...valid, address: '' },
    'Please enter company address!',
    ['address'],
  );
  refuses(
    t,
    organizationContactSchema,
    { ...valid, person: ' ' },
    'Please enter password contact person name!',
    ['person'],
  );
  refuses(t, organizationContactSchema, { ...valid, email: '' }, 'Please enter Email Address!', [
    'email',
  ]);
  refuses(
    t,
    organizationContactSchema,
    { ...valid, email: 'x@' },
    'The Email you entered is not a valid format!',
    ['email'],
  );
  refuses(t, organizationContactSchema, { ...valid, phone: '' }, 'Please enter phone!', ['phone']);
  refuses(t, organizationContactSchema, { ...valid, phone: '12345' }, PHONE_FORMAT, ['phone']);
  refuses(t, organizationContactSchema, { ...valid, name: '' }, 'Please enter company name!', [
    'name',
  ]);
  refuses(t, organizationContactSchema, { ...contactInfo }, 'Please enter company name!', ['name']);
});

t.test('user sign-up form (client, with confirmPassword)', async (t) => {
  const form = {
    name: 'Ann Lee',
    email: 'ann@haul.example',
    username: 'ann',
    password: 'secret-pass',
    confirmPassword: 'secret-pass',
    phone: '5555555555',
  };
  accepts(t, userSignUpFormSchema, form);
  refuses(t, userSignUpFormSchema, { ...form, name: '' }, 'Please enter name!', ['name']);
  refuses(t, userSignUpFormSchema, { ...form, email: '' }, 'Please enter Email Address!', [
    'email',
  ]);
  refuses(
    t,
    userSignUpFormSchema,
    { ...form, email: 'ann' },
    'The Email you entered is not a valid format!',
    ['email'],
  );
  refuses(t, userSignUpFormSchema, { ...form, username: '' }, 'Please enter username!', [
    'username',
  ]);
  refuses(
    t,
    userSignUpFormSchema,
    { ...form, password: '', confirmPassword: '' },
    'Please enter password!',
    ['password'],
  );
  refuses(
    t,
    userSignUpFormSchema,
    { ...form, password: 'short7c', confirmPassword: 'short7c' },
    'Password is too short - should be 8 chars minimum',
    ['password'],
  );
  refuses(
    t,
    userSignUpFormSchema,
    { ...form, confirmPassword: 'secret-pasS' },
    'Passwords must match',
    ['confirmPassword'],
  );
  refuses(
    t,
    userSignUpFormSchema,
    { ...form, confirmPassword: undefined },
    'Passwords must match',
    ['confirmPassword'],
  );
  refuses(t, userSignUpFormSchema, { ...form, phone: '' }, 'Please enter phone!', ['phone']);
  refuses(t, userSignUpFormSchema, { ...form, phone: '555-555' }, PHONE_FORMAT, ['phone']);
  const mixed = userSignUpFormSchema.safeParse({
    ...form,
    name: '',
    confirmPassword: 'other-pass',
  });
  t.same(
    mixed.error?.issues.map((issue) => issue.message),
    ['Please enter name!', 'Passwords must match'],
    'mismatch shows beside other errors',
  );
});

t.test('user sign-up body (server, no confirmPassword)', async (t) => {
  accepts(t, userSignUpBodySchema, userBody);
  refuses(
    t,
    userSignUpBodySchema,
    { ...userBody, userDetails: { ...userBody.userDetails, name: '' } },
    'Please enter name!',
    ['userDetails', 'name'],
  );
  refuses(
    t,
    userSignUpBodySchema,
    { ...userBody, userDetails: { name: 'Ann' } },
    'Please enter phone!',
    ['userDetails', 'phone'],
  );
  refuses(
    t,
    userSignUpBodySchema,
    { ...userBody, password: '1234567' },
    'Password is too short - should be 8 chars minimum',
    ['password'],
  );
  refuses(t, userSignUpBodySchema, { ...userBody, username: undefined }, 'Please enter username!', [
    'username',
  ]);
});

t.test('PUT users body: optional passwords of at least 8, no equality rule', async (t) => {
  const body = { email: 'ann@haul.example', username: 'ann', name: 'Ann Lee', phone: '5555555555' };
  accepts(t, updateAccountBodySchema, body);
  accepts(t, updateAccountBodySchema, {
    ...body,
    oldPassword: 'old-password',
    newPassword: 'new-password',
  });
  refuses(
    t,
    updateAccountBodySchema,
    { ...body, newPassword: 'short' },
    'Password is too short - should be 8 chars minimum',
    ['newPassword'],
  );
  refuses(
    t,
    updateAccountBodySchema,
    { ...body, email: 'bad' },
    'The Email you entered is not a valid format!',
    ['email'],
  );
});

t.test('POST users body (administrator creates a user)', async (t) => {
  const body = { ...userBody, roleId: 4, organizationId: '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01' };
  accepts(t, createUserBodySchema, body);
  accepts(t, createUserBodySchema, { ...body, roleId: 1, organizationId: undefined });
  refuses(t, createUserBodySchema, { ...body, roleId: 7 }, 'Please select a role', ['roleId']);
  refuses(t, createUserBodySchema, { ...body, roleId: undefined }, 'Please select a role', [
    'roleId',
  ]);
  refuses(
    t,
    createUserBodySchema,
    { ...body, organizationId: '-1' },
    'Please select a valid organization',
    ['organizationId'],
  );
  refuses(t, createUserBodySchema, { ...body, password: '' }, 'Please enter password!', [
    'password',
  ]);
  refuses(
    t,
    createUserBodySchema,
    { ...body, userDetails: { name: 'Ann', phone: 'x' } },
    PHONE_FORMAT,
    ['userDetails', 'phone'],
  );
});

t.test('PUT users/{id} body', async (t) => {
  const body = { email: 'ann@haul.example', name: 'Ann Lee', phone: '5555555555' };
  accepts(t, updateUserBodySchema, body);
  accepts(t, updateUserBodySchema, { ...body, newPassword: '' });
  accepts(t, updateUserBodySchema, { ...body, newPassword: 'new-password' });
  refuses(
    t,
    updateUserBodySchema,
    { ...body, newPassword: 'short' },
    'Password is too short - should be 8 chars minimum',
    ['newPassword'],
  );
  refuses(t, updateUserBodySchema, { ...body, name: '' }, 'Please enter name!', ['name']);
  refuses(t, updateUserBodySchema, { ...body, email: '' }, 'Please enter Email Address!', [
    'email',
  ]);
});

t.test('reset password body', async (t) => {
  accepts(t, resetPasswordBodySchema, { code: 'abc', newPassword: 'new-password' });
  refuses(
    t,
    resetPasswordBodySchema,
    { code: '', newPassword: 'new-password' },
    'Please enter the reset code',
    ['code'],
  );
  refuses(
    t,
    resetPasswordBodySchema,
    { code: 'abc', newPassword: 'short' },
    'Password is too short - should be 8 chars minimum',
    ['newPassword'],
  );
});

t.test('carrier registration data', async (t) => {
  const parsed = accepts(t, carrierRegistrationSchema, carrierRegistration);
  t.equal(parsed.mcNumber, 123456);
  t.same(
    accepts(t, carrierRegistrationSchema, {
      ...carrierRegistration,
      mcNumber: ' 42 ',
      dotNumber: '7',
    }),
    { ...carrierRegistration, mcNumber: 42, dotNumber: 7 },
    'numeric strings become numbers',
  );
  t.same(
    accepts(t, carrierRegistrationSchema, {
      ...carrierRegistration,
      trucks: undefined,
      trailers: undefined,
      driverTeams: undefined,
    }).trucks,
    [],
    'absent lists are empty',
  );
  for (const mcNumber of [undefined, null, '', 'MC-12', 0, -3, 1.5, '0', true]) {
    refuses(
      t,
      carrierRegistrationSchema,
      { ...carrierRegistration, mcNumber },
      'Please enter your MC Number',
      ['mcNumber'],
    );
  }
  for (const dotNumber of [undefined, '', 'abc', 0, -1, 2.5]) {
    refuses(
      t,
      carrierRegistrationSchema,
      { ...carrierRegistration, dotNumber },
      'Please enter your DOT Number',
      ['dotNumber'],
    );
  }
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, acceptTerms: false },
    'Accept Terms & Conditions is required',
    ['acceptTerms'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, acceptTerms: undefined },
    'Accept Terms & Conditions is required',
    ['acceptTerms'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, acceptTerms: 'true' },
    'Accept Terms & Conditions is required',
    ['acceptTerms'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, trucks: [{ type: 6, count: 1 }] },
    'Please select a valid truck type',
    ['trucks', 0, 'type'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, trailers: [{ type: 52, count: 1 }] },
    'Please select a valid trailer type',
    ['trailers', 0, 'type'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, driverTeams: [{ type: 3, count: 1 }] },
    'Please select a valid driver team',
    ['driverTeams', 0, 'type'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, trucks: [{ type: 1, count: 0 }] },
    'Please enter a count of at least 1',
    ['trucks', 0, 'count'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, trucks: [{ type: 1, count: 1.5 }] },
    'Please enter a count of at least 1',
    ['trucks', 0, 'count'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, organization: { name: '', organizationContactInfo: contactInfo } },
    'Please enter company name!',
    ['organization', 'name'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    {
      ...carrierRegistration,
      organization: { name: 'Haul Co', organizationContactInfo: { ...contactInfo, person: '' } },
    },
    'Please enter password contact person name!',
    ['organization', 'organizationContactInfo', 'person'],
  );
  refuses(
    t,
    carrierRegistrationSchema,
    { ...carrierRegistration, email: '' },
    'Please enter Email Address!',
    ['email'],
  );
});

t.test('shipper registration data', async (t) => {
  t.equal(accepts(t, shipperRegistrationSchema, shipperRegistration).insuredAmount, 1);
  t.equal(
    accepts(t, shipperRegistrationSchema, { ...shipperRegistration, insuredAmount: '2' })
      .insuredAmount,
    2,
  );
  t.equal(
    accepts(t, shipperRegistrationSchema, {
      ...shipperRegistration,
      insuredAmount: '> $100,000.00',
    }).insuredAmount,
    2,
    'the option name is accepted',
  );
  t.equal(
    accepts(t, shipperRegistrationSchema, {
      ...shipperRegistration,
      insuredAmount: '< $100,000.00',
    }).insuredAmount,
    1,
  );
  for (const insuredAmount of [undefined, 0, 3, '', 'lots']) {
    refuses(
      t,
      shipperRegistrationSchema,
      { ...shipperRegistration, insuredAmount },
      'Please select an insurance amount',
      ['insuredAmount'],
    );
  }
  refuses(
    t,
    shipperRegistrationSchema,
    { ...shipperRegistration, acceptTerms: false },
    'Accept Terms & Conditions is required',
    ['acceptTerms'],
  );
  refuses(
    t,
    shipperRegistrationSchema,
    { ...shipperRegistration, userDetails: { name: 'Ann', phone: '' } },
    'Please enter phone!',
    ['userDetails', 'phone'],
  );
});

t.test('profile bodies (POST users/carrier, POST users/shipper)', async (t) => {
  const carrier = { mcNumber: '123', dotNumber: 456, eldProvider: ' Samsara ', ...fleet };
  t.same(accepts(t, carrierProfileBodySchema, carrier), {
    ...carrier,
    mcNumber: 123,
    eldProvider: 'Samsara',
  });
  t.equal(
    accepts(t, carrierProfileBodySchema, { ...carrier, eldProvider: '' }).eldProvider,
    null,
    'an empty provider is null',
  );
  refuses(
    t,
    carrierProfileBodySchema,
    { ...carrier, mcNumber: '' },
    'Please enter your MC Number',
    ['mcNumber'],
  );
  refuses(
    t,
    carrierProfileBodySchema,
    { ...carrier, dotNumber: null },
    'Please enter your DOT Number',
    ['dotNumber'],
  );
  t.same(accepts(t, shipperProfileBodySchema, { insuredAmount: 2 }), { insuredAmount: 2 });
  refuses(t, shipperProfileBodySchema, {}, 'Please select an insurance amount', ['insuredAmount']);
});

t.test('organization create data (POST users/organization)', async (t) => {
  const base = { name: 'Haul Co', organizationContactInfo: contactInfo };
  accepts(t, createOrganizationDataSchema, {
    type: 'Carrier',
    ...base,
    mcNumber: 1,
    dotNumber: 2,
    eldProvider: null,
    ...fleet,
  });
  accepts(t, createOrganizationDataSchema, { type: 'Shipper', ...base, insuredAmount: 1 });
  refuses(
    t,
    createOrganizationDataSchema,
    { type: 'Broker', ...base },
    'Please select an organization type',
    ['type'],
  );
  refuses(
    t,
    createOrganizationDataSchema,
    { type: 'Carrier', ...base, dotNumber: 2 },
    'Please enter your MC Number',
    ['mcNumber'],
  );
  refuses(
    t,
    createOrganizationDataSchema,
    { type: 'Shipper', ...base, name: '', insuredAmount: 1 },
    'Please enter company name!',
    ['name'],
  );
  refuses(
    t,
    createOrganizationDataSchema,
    {
      type: 'Shipper',
      ...base,
      organizationContactInfo: { ...contactInfo, address: '' },
      insuredAmount: 1,
    },
    'Please enter company address!',
    ['organizationContactInfo', 'address'],
  );
});

t.test('documents and signature', async (t) => {
  const pdf = (size: number) => ({ size, detectedMime: 'application/pdf' });
  t.equal(checkDocument(pdf(1)), null);
  t.equal(checkDocument(pdf(5_242_880)), null, 'exactly 5,242,880 bytes is allowed');
  t.equal(checkDocument(pdf(5_242_881)), 'File too large');
  t.equal(checkDocument(null), 'A file is required');
  t.equal(checkDocument(undefined), 'A file is required');
  t.equal(checkDocument(pdf(0)), 'A file is required', 'an empty file counts as none');
  t.equal(checkDocument({ size: 100, detectedMime: 'image/png' }), 'Unsupported Format');
  t.equal(checkDocument({ size: 100, detectedMime: null }), 'Unsupported Format');
  t.equal(
    checkDocument({ size: 6_000_000, detectedMime: 'image/png' }),
    'File too large',
    'size is checked before format',
  );
  t.equal(checkSignature({ size: 100, detectedMime: 'image/jpeg' }), null);
  t.equal(checkSignature({ size: 100, detectedMime: 'image/png' }), null);
  t.equal(checkSignature({ size: 100, detectedMime: 'application/pdf' }), 'Unsupported Format');
  t.equal(checkSignature({ size: 100, detectedMime: 'image/gif' }), 'Unsupported Format');
  t.equal(checkSignature(null), 'A file is required');
  t.equal(checkSignature({ size: 5_242_881, detectedMime: 'image/png' }), 'File too large');
  t.same(fileProblemStatus, {
    'A file is required': 400,
    'File too large': 413,
    'Unsupported Format': 415,
  });
});

t.test('PIN and confirm-signup body', async (t) => {
  t.equal(accepts(t, pinSchema, ' 012345 '), '012345');
  for (const pin of ['12345', '1234567', 'abcdef', '', undefined, 123456])
    refuses(t, pinSchema, pin, 'Please enter the 6-digit code');
  accepts(t, confirmSignupBodySchema, { email: 'ann@haul.example', code: '123456' });
  refuses(
    t,
    confirmSignupBodySchema,
    { email: 'ann@haul.example', code: '12' },
    'Please enter the 6-digit code',
    ['code'],
  );
  refuses(
    t,
    confirmSignupBodySchema,
    { email: '', code: '123456' },
    'Please enter Email Address!',
    ['email'],
  );
});
