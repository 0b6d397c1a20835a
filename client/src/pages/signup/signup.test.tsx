import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));
const stepHeading = (name: RegExp) => screen.findByRole('heading', { level: 2, name });

const pdf = (name: string, size = 2048) =>
  new File([new Uint8Array(size)], name, { type: 'application/pdf' });
/** Picks a file in the drop zone whose label reads `label` (through its hidden file input). */
function chooseFile(label: string, file: File) {
  const zone = screen.getByRole('group', { name: new RegExp(label) });
  const input = zone.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

function fillAccount() {
  type(/^Full name/, 'Rosa Diaz');
  type(/^Email/, 'rosa@lonestar.example');
  type(/^Username/, 'rosa');
  type(/^Phone/, '(214) 555-0199');
  type(/^Password/, 'long-enough-1');
  type(/^Retype password/, 'long-enough-1');
}

function fillCompany() {
  type(/^Company name/, 'Lone Star Hauling');
  type(/^Contact person name/, 'Rosa Diaz');
  type(/^Company address/, '1 Elm St, Dallas, TX');
  type(/^Company phone/, '214-555-0100');
  type(/^Company email/, 'ops@lonestar.example');
}

describe('carrier registration (/signup/carrier)', () => {
  beforeEach(() => resetApp());

  it('shows the specification messages of the account step and keeps Back disabled on step 1', async () => {
    const { current } = renderAppAt('/signup/carrier');
    await stepHeading(/Step 1 of 5 · Your account/);
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);

    next();
    for (const message of [
      'Please enter name!',
      'Please enter Email Address!',
      'Please enter username!',
      'Please enter password!',
      'Please enter phone!',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(screen.getByRole('heading', { level: 2, name: /Step 1 of 5/ })).toBeTruthy();

    type(/^Email/, 'not-an-email');
    type(/^Password/, 'short');
    type(/^Retype password/, 'other');
    type(/^Phone/, '12345');
    next();
    expect(await screen.findByText('The Email you entered is not a valid format!')).toBeTruthy();
    expect(screen.getByText('Password is too short - should be 8 chars minimum')).toBeTruthy();
    expect(screen.getByText('Passwords must match')).toBeTruthy();
    expect(
      screen.getByText(
        'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)',
      ),
    ).toBeTruthy();
    expect(current()).toBe('/signup/carrier');
  });

  it('moves forward only when a step is valid, and back without losing what was typed', async () => {
    renderAppAt('/signup/carrier');
    await stepHeading(/Step 1 of 5/);
    fillAccount();
    next();
    await stepHeading(/Step 2 of 5 · Company/);

    next();
    for (const message of [
      'Please enter company name!',
      'Please enter password contact person name!',
      'Please enter company address!',
      'Please enter phone!',
      'Please enter Email Address!',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await stepHeading(/Step 1 of 5/);
    expect((screen.getByLabelText(/^Full name/) as HTMLInputElement).value).toBe('Rosa Diaz');
    next();
    await stepHeading(/Step 2 of 5/);
    fillCompany();
    next();
    await stepHeading(/Step 3 of 5 · Authority and documents/);
  });

  it('checks the MC and DOT numbers and each of the three PDFs for presence, type and size', async () => {
    renderAppAt('/signup/carrier');
    await stepHeading(/Step 1 of 5/);
    fillAccount();
    next();
    await stepHeading(/Step 2 of 5/);
    fillCompany();
    next();
    await stepHeading(/Step 3 of 5/);

    next();
    expect(await screen.findByText('Please enter your MC Number')).toBeTruthy();
    expect(screen.getByText('Please enter your DOT Number')).toBeTruthy();
    expect(screen.getAllByText('A file is required')).toHaveLength(3);

    type(/^MC number/, '-4');
    type(/^DOT number/, 'abc');
    chooseFile('MC Authority', new File(['hello'], 'authority.txt', { type: 'text/plain' }));
    chooseFile('Certifications of Insurance', pdf('insurance.pdf', 5_242_881));
    next();
    expect(await screen.findByText('Unsupported Format')).toBeTruthy();
    expect(screen.getByText('File too large')).toBeTruthy();
    expect(screen.getByText('Please enter your MC Number')).toBeTruthy();
    expect(screen.getByText('Please enter your DOT Number')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: /Step 3 of 5/ })).toBeTruthy();

    type(/^MC number/, '123456');
    type(/^DOT number/, '7654321');
    chooseFile('MC Authority', pdf('authority.pdf'));
    chooseFile('Certifications of Insurance', pdf('insurance.pdf', 5_242_880));
    chooseFile('W9 Form', pdf('w9.pdf'));
    expect(screen.queryByText('A file is required')).toBeNull();
    next();
    await stepHeading(/Step 4 of 5 · Fleet/);
  });

  it('sends the registration with its documents once the terms are accepted, then shows /signup-complete', async () => {
    const requests: { url: string; body: FormData }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (url === '/api/register/carrier') {
          requests.push({ url, body: init?.body as FormData });
          return json(201, { userId: 'u-1', organizationId: 'o-1' });
        }
        throw new TypeError('No network in tests');
      }),
    );
    const { current } = renderAppAt('/signup/carrier');
    await stepHeading(/Step 1 of 5/);
    fillAccount();
    next();
    await stepHeading(/Step 2 of 5/);
    fillCompany();
    next();
    await stepHeading(/Step 3 of 5/);
    type(/^MC number/, '123456');
    type(/^DOT number/, '7654321');
    chooseFile('MC Authority', pdf('authority.pdf'));
    chooseFile('Certifications of Insurance', pdf('insurance.pdf'));
    chooseFile('W9 Form', pdf('w9.pdf'));
    next();
    await stepHeading(/Step 4 of 5/);

    // Trucks, driver teams and trailers are lists of type and count; a new line has count 1.
    const trucks = screen.getByRole('group', { name: 'Trucks' });
    fireEvent.click(within(trucks).getByRole('button', { name: 'Add trucks' }));
    fireEvent.click(within(trucks).getByRole('button', { name: 'Add trucks' }));
    expect(within(trucks).getAllByLabelText('Count')).toHaveLength(2);
    fireEvent.click(within(trucks).getAllByRole('button', { name: 'Remove this line' })[1]!);
    expect(within(trucks).getAllByLabelText('Count')).toHaveLength(1);
    next();
    await stepHeading(/Step 5 of 5 · Review/);
    expect(screen.getByText('3 of 3 uploaded')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('Accept Terms & Conditions is required')).toBeTruthy();
    expect(requests).toHaveLength(0);

    fireEvent.click(screen.getByLabelText('I accept the Terms & Conditions'));
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    await waitFor(() => expect(current()).toBe('/signup-complete'));
    expect(
      await screen.findByText(/We e-mailed a 6-digit code to rosa@lonestar.example/),
    ).toBeTruthy();

    const [sent] = requests;
    const data = JSON.parse(String(sent!.body.get('data')));
    expect(data).toMatchObject({
      email: 'rosa@lonestar.example',
      username: 'rosa',
      userDetails: { name: 'Rosa Diaz', phone: '(214) 555-0199' },
      organization: {
        name: 'Lone Star Hauling',
        organizationContactInfo: { person: 'Rosa Diaz', email: 'ops@lonestar.example' },
      },
      mcNumber: '123456',
      dotNumber: '7654321',
      trucks: [{ type: 1, count: 1 }],
      driverTeams: [],
      trailers: [],
      acceptTerms: true,
    });
    expect(
      ['mcAuthority', 'certificateOfInsurance', 'w9Form'].map(
        (field) => (sent!.body.get(field) as File | null)?.name,
      ),
    ).toEqual(['authority.pdf', 'insurance.pdf', 'w9.pdf']);
  });

  it("brings back the step of a field the server refuses, with the server's message under it", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/register/carrier')
          return json(409, { statusCode: 409, message: 'Email already registered' });
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/signup/carrier');
    await stepHeading(/Step 1 of 5/);
    fillAccount();
    next();
    await stepHeading(/Step 2 of 5/);
    fillCompany();
    next();
    await stepHeading(/Step 3 of 5/);
    type(/^MC number/, '123456');
    type(/^DOT number/, '7654321');
    chooseFile('MC Authority', pdf('a.pdf'));
    chooseFile('Certifications of Insurance', pdf('b.pdf'));
    chooseFile('W9 Form', pdf('c.pdf'));
    next();
    await stepHeading(/Step 4 of 5/);
    next();
    await stepHeading(/Step 5 of 5/);
    fireEvent.click(screen.getByLabelText('I accept the Terms & Conditions'));
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    await stepHeading(/Step 1 of 5/);
    expect(screen.getAllByText('Email already registered').length).toBeGreaterThan(0);
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(
      'rosa@lonestar.example',
    );
  });
});

describe('shipper registration (/signup/shipper)', () => {
  beforeEach(() => resetApp());

  it('asks for the insurance amount and the terms on its third and last step', async () => {
    const bodies: FormData[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/register/shipper') {
          bodies.push(init?.body as FormData);
          return json(201, { userId: 'u-2', organizationId: 'o-2' });
        }
        throw new TypeError('No network in tests');
      }),
    );
    const { current } = renderAppAt('/signup/shipper');
    await stepHeading(/Step 1 of 3 · Your account/);
    fillAccount();
    next();
    await stepHeading(/Step 2 of 3 · Company/);
    fillCompany();
    next();
    await stepHeading(/Step 3 of 3 · Insurance/);

    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('Please select an insurance amount')).toBeTruthy();
    expect(screen.getByText('Accept Terms & Conditions is required')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('> $100,000.00'));
    fireEvent.click(screen.getByLabelText('I accept the Terms & Conditions'));
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    await waitFor(() => expect(current()).toBe('/signup-complete'));
    expect(JSON.parse(String(bodies[0]!.get('data')))).toMatchObject({
      insuredAmount: 2,
      acceptTerms: true,
      username: 'rosa',
    });
  });
});

describe('a registration already started', () => {
  beforeEach(() => resetApp());

  const STARTED = 'Registration already started, please enter the security code';
  const RESENT =
    'If a registration with this address is waiting for its code, a new code has been sent to it.';

  it('goes from the sign-up form to the code screen for that e-mail with the message, where a new code can be asked for', async () => {
    const resends: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (url === '/api/register/shipper')
          return json(409, {
            statusCode: 409,
            error: 'Conflict',
            message: STARTED,
            code: 'registration_pending',
            errors: [{ path: 'email', message: STARTED, code: 'registration_pending' }],
          });
        if (url === '/api/confirm-signup/resend') {
          resends.push(String(init?.body));
          return json(200, { message: RESENT });
        }
        throw new TypeError('No network in tests');
      }),
    );
    const { current } = renderAppAt('/signup/shipper');
    await stepHeading(/Step 1 of 3/);
    fillAccount();
    next();
    await stepHeading(/Step 2 of 3/);
    fillCompany();
    next();
    await stepHeading(/Step 3 of 3/);
    fireEvent.click(screen.getByLabelText('> $100,000.00'));
    fireEvent.click(screen.getByLabelText('I accept the Terms & Conditions'));
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));

    await waitFor(() =>
      expect(current()).toBe('/confirm-signup?email=rosa%40lonestar.example&started=1'),
    );
    await screen.findByRole('heading', { level: 1, name: 'Confirm your sign-up' });
    expect(screen.getByText(STARTED)).toBeTruthy();
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(
      'rosa@lonestar.example',
    );
    expect(resends).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Send the code again' }));
    expect(await screen.findByText(RESENT)).toBeTruthy();
    expect(resends).toEqual([JSON.stringify({ email: 'rosa@lonestar.example' })]);
    expect(screen.queryByText(STARTED)).toBeNull();
  });

  it('asks for a valid address before sending a new code', async () => {
    const resends: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/confirm-signup/resend') resends.push(String(input));
        throw new TypeError('No network in tests');
      }),
    );
    window.sessionStorage.clear();
    renderAppAt('/confirm-signup');
    await screen.findByRole('heading', { level: 1, name: 'Confirm your sign-up' });
    fireEvent.click(screen.getByRole('button', { name: 'Send the code again' }));
    expect(await screen.findByText('Please enter Email Address!')).toBeTruthy();
    expect(resends).toEqual([]);
  });
});

describe('choosing and confirming', () => {
  beforeEach(() => resetApp());

  it('offers shipper and carrier registration on /signup/select', async () => {
    renderAppAt('/signup/select');
    expect((await screen.findByRole('link', { name: /I ship freight/ })).getAttribute('href')).toBe(
      '/signup/shipper',
    );
    expect(screen.getByRole('link', { name: /I haul freight/ }).getAttribute('href')).toBe(
      '/signup/carrier',
    );
  });

  it('wants a 6-digit code on /confirm-signup, and says when the code has expired', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/confirm-signup')
          return json(410, { statusCode: 410, message: 'Code expired, please register again' });
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/confirm-signup?email=rosa%40lonestar.example');
    await screen.findByRole('heading', { level: 1, name: 'Confirm your sign-up' });
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(
      'rosa@lonestar.example',
    );
    type(/^Verification code/, '12a4');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Please enter the 6-digit code')).toBeTruthy();

    type(/^Verification code/, '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Code expired, please register again')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register again' }).getAttribute('href')).toBe(
      '/signup/select',
    );
  });

  it('says no record was found when the code is refused, whatever the cause', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/confirm-signup')
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: 'Invalid confirmation code',
            code: 'confirmation_code_invalid',
            errors: [
              {
                path: 'code',
                message: 'Invalid confirmation code',
                code: 'confirmation_code_invalid',
              },
            ],
          });
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/confirm-signup?email=rosa%40lonestar.example');
    await screen.findByRole('heading', { level: 1, name: 'Confirm your sign-up' });
    expect(
      screen.queryByText('Registration already started, please enter the security code'),
    ).toBeNull();
    type(/^Verification code/, '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Invalid confirmation code')).toBeTruthy();
    expect(
      screen.getByText(
        'No record found for this e-mail address and code. Check both, or send the code again.',
      ),
    ).toBeTruthy();
  });
});
