import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('the landing page', () => {
  beforeEach(() => resetApp());

  it('goes to the section a link names (/#features) once the page has rendered it', async () => {
    const scrolled: string[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function scrollIntoView(this: Element) {
      scrolled.push(this.id);
    };
    window.history.replaceState(null, '', '/#features');
    try {
      renderAppAt('/');
      expect(
        await screen.findByRole(
          'heading',
          { level: 1, name: 'Move freight with the people who haul it' },
          { timeout: 20_000 },
        ),
      ).toBeTruthy();
      await waitFor(() => expect(scrolled).toEqual(['features']));
    } finally {
      window.history.replaceState(null, '', '/');
      Element.prototype.scrollIntoView = original;
    }
  });

  it('shows its built-in content when the content source cannot be read, with LOGIN and the sections', async () => {
    renderAppAt('/');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Move freight with the people who haul it' },
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'LOGIN' }).getAttribute('href')).toBe('/signin');
    const nav = screen.getByRole('navigation', { name: 'Sections of the page' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['About', 'Features', 'Sign up', 'Testimonials', 'Contact']);
    for (const id of ['about', 'features', 'signup', 'testimonials', 'contact'])
      expect(document.getElementById(id)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Try it for free' })[0]!.getAttribute('href')).toBe(
      '/signup/select',
    );
    expect(screen.getAllByRole('button', { name: 'Learn more' }).length).toBe(2);
    const footer = within(document.getElementById('contact')!);
    expect(footer.getByRole('link', { name: 'Terms and conditions' }).getAttribute('href')).toBe(
      '/terms',
    );
    expect(footer.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe(
      '/privacy',
    );
    expect(footer.getByRole('link', { name: 'hello@freight.local' }).getAttribute('href')).toBe(
      'mailto:hello@freight.local',
    );
  });

  it('shows what the content source serves, and switches feature tabs', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        if (url === '/api/content/hero')
          return json(200, [
            { title: 'Haul smarter', subtitle: 'From the CMS', image: '//images.example/hero.png' },
          ]);
        if (url === '/api/content/featuresSection')
          return json(200, [
            { tabName: 'Board', tabImage: '', tabDescription: 'All loads' },
            { tabName: 'Maps', tabImage: '', tabDescription: 'Live trucks' },
          ]);
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Haul smarter' }, { timeout: 20_000 }),
    ).toBeTruthy();
    fireEvent.click(await screen.findByRole('tab', { name: 'Maps' }));
    expect(screen.getByRole('tab', { name: 'Maps' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toContain('Live trucks');
  });

  it('sends the interest form only when it is not empty, and says so when sending fails', async () => {
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/sendInfoToAdmin') {
          sent.push(String(init?.body));
          return json(500, { message: 'down' });
        }
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/');
    const button = await screen.findByRole('button', { name: 'Keep me posted' });
    fireEvent.click(button);
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByPlaceholderText('Your work e-mail'), {
      target: { value: 'dispatch@acme' },
    });
    fireEvent.click(button);
    expect(await screen.findByText('Oops, something went wrong. Try again later')).toBeTruthy();
    expect(sent).toEqual([JSON.stringify({ email: 'dispatch@acme' })]);
  });

  it('sends what the visitor typed with no format check, and names what is expected when the text is refused', async () => {
    const sent: string[] = [];
    const TOO_LONG =
      'Please enter at most 200 characters: your e-mail address, or another way to reach you';
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/sendInfoToAdmin') {
          sent.push(String(init?.body));
          if (sent.length === 1)
            return json(200, { message: 'Thank you! We will be in touch soon.' });
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: TOO_LONG,
            code: 'interest_contact_too_long',
            errors: [{ path: 'email', message: TOO_LONG, code: 'interest_contact_too_long' }],
          });
        }
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/');
    const button = await screen.findByRole('button', { name: 'Keep me posted' });
    const input = screen.getByPlaceholderText('Your work e-mail');

    fireEvent.change(input, { target: { value: '  call Rosa at (555) 555-0142 ' } });
    fireEvent.click(button);
    expect(await screen.findByText('Thank you! We will be in touch soon.')).toBeTruthy();
    expect(sent).toEqual([JSON.stringify({ email: 'call Rosa at (555) 555-0142' })]);

    fireEvent.change(input, { target: { value: 'x'.repeat(201) } });
    fireEvent.click(button);
    expect(await screen.findByText(TOO_LONG)).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('interest-email-error');

    // The server's own refusal is shown the same way, never as 'Oops'.
    fireEvent.change(input, { target: { value: 'ops@prairie.example' } });
    expect(screen.queryByText(TOO_LONG)).toBeNull();
    fireEvent.click(button);
    expect(await screen.findByText(TOO_LONG)).toBeTruthy();
    expect(sent).toHaveLength(2);
    expect(screen.queryByText('Oops, something went wrong. Try again later')).toBeNull();
  });
});

describe('legal pages', () => {
  beforeEach(() => resetApp());

  it('renders the privacy policy from the content source, with home and privacy in its navigation', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/content/privacyPolicy')
          return json(200, [
            {
              text: '## Privacy policy\n\nWe keep **little**.\n\n## What we keep\n\n- Your account\n- Your loads',
            },
          ]);
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/privacy');
    expect(await screen.findByRole('heading', { level: 2, name: 'What we keep' })).toBeTruthy();
    expect(screen.getByText('little').tagName).toBe('STRONG');
    const nav = screen.getByRole('navigation', { name: 'Legal pages' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/', '/privacy']);
  });

  it('keeps the privacy page useful when the policy cannot be read', async () => {
    renderAppAt('/privacy');
    expect(
      await screen.findByText('The privacy policy cannot be loaded right now. In short:'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('administration', () => {
  it('lists pending carriers with their documents, and activates the organization', async () => {
    await resetApp(users.admin);
    const calls: string[] = [];
    const bodies: unknown[] = [];
    const row = {
      id: 'org-1',
      name: 'Prairie Haul LLC',
      type: 'Carrier',
      email: 'ops@prairie.example',
      phone: '312-555-0100',
      address: '1 Lake St',
      person: 'Marta K',
      user: {
        id: 'user-9',
        name: 'Marta K',
        email: 'marta@prairie.example',
        username: 'marta',
        phone: '312-555-0101',
        status: 1,
      },
      mcNumber: 884213,
      dotNumber: 3314587,
      eldProvider: null,
      documents: {
        mcAuthority: 'f-1',
        certificateOfInsurance: 'f-2',
        w9Form: 'f-3',
        noticeOfAssignment: null,
      },
      createdAt: '2026-11-20T10:00:00Z',
      status: 1,
      statusName: 'Pending',
      actions: [13, 14],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url.startsWith('/api/users/list/carriers'))
          return json(200, {
            page: 1,
            pageSize: 10,
            total: 1,
            totalPages: 1,
            data: [row],
            actions: [
              { id: 13, name: 'Activate' },
              { id: 14, name: 'Block' },
            ],
          });
        if (url === '/api/organizations/org-1/status' && init?.method === 'PUT') {
          bodies.push(JSON.parse(String(init.body)));
          return json(200, { id: 'org-1', status: 'Active' });
        }
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/users/carriers/pending');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Pending carriers' },
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Prairie Haul LLC', {}, { timeout: 20_000 })).toBeTruthy();
    expect(
      decodeURIComponent(calls.find((url) => url.startsWith('GET /api/users/list/carriers'))!),
    ).toContain('filters=[{"name":"status","value":[1]}]');

    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByRole('button', { name: 'View' })).toHaveLength(3);
    expect(within(dialog).getByText('Not uploaded')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /close/i }));

    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    // The organization is activated, not its first user.
    await waitFor(() => expect(calls).toContain('PUT /api/organizations/org-1/status'));
    expect(bodies).toEqual([{ status: 'Active' }]);
    expect(calls.some((url) => url.includes('/api/users/activate/'))).toBe(false);
    expect(await screen.findByText('Organization activated')).toBeTruthy();
  });
});
