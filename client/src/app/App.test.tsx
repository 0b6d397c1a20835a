import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n, { supportedLanguages } from '../i18n/index.ts';
import { appStore, authStatusAtom, authUserAtom } from '../state/session.ts';
import { renderAppAt, resetApp } from '../test/renderApp.tsx';
import { users } from '../test/users.ts';

describe('redirect rules', () => {
  beforeEach(() => resetApp());

  it('sends a signed-out visitor from a gated page to /signin/', async () => {
    const { current } = renderAppAt('/tours');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(current()).toBe('/signin/');
  });

  it('lets a signed-out visitor read the terms and the privacy policy', async () => {
    const { current } = renderAppAt('/terms');
    expect(
      await screen.findByRole('heading', { name: 'Terms and conditions', level: 1 }),
    ).toBeTruthy();
    expect(current()).toBe('/terms');
  });

  it('sends unknown paths to the 404 page', async () => {
    const { current } = renderAppAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(current()).toBe('/error-pages/error-404');
  });

  it.each([
    ['carrier', '/', '/loads/carrier', 'Search loads'],
    ['shipper', '/signin/', '/loads/shipper', 'My loads'],
    ['driver', '/signup/select', '/driver', 'My tour'],
    ['admin', '/', '/loads/shipper', 'My loads'],
  ] as const)(
    'takes a signed-in %s from %s to the home page of the role',
    async (role, from, home, title) => {
      await resetApp(users[role]);
      const { current } = renderAppAt(from);
      expect(
        // The role's page is a lazy chunk: on a loaded machine (CI runs the browser journeys beside
        // these) its first import can take several seconds.
        await screen.findByRole('heading', { name: title, level: 1 }, { timeout: 20_000 }),
      ).toBeTruthy();
      expect(current()).toBe(home);
    },
  );

  it('restores the remembered path after sign-in', async () => {
    const { current } = renderAppAt('/tours');
    await screen.findByRole('heading', { name: 'Sign in' });
    await act(async () => {
      appStore.set(authUserAtom, users.carrier);
      appStore.set(authStatusAtom, 'signedIn');
    });
    expect(await screen.findByRole('heading', { name: 'Tours', level: 1 })).toBeTruthy();
    expect(current()).toBe('/tours');
  });

  it.each([
    ['driver', '/tours'],
    ['shipper', '/add-organization'],
    ['carrier', '/loads/shipper'],
    ['shipper', '/users/carriers/active'],
  ] as const)('sends a %s without the permission for %s to the 404 page', async (role, path) => {
    await resetApp(users[role]);
    const { current } = renderAppAt(path);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(current()).toBe('/error-pages/error-404');
  });

  it('opens a route to a holder of any one of its codes', async () => {
    await resetApp(users.carrier);
    renderAppAt('/offer/load/42');
    expect(await screen.findByRole('heading', { name: 'Make an offer', level: 1 })).toBeTruthy();
  });

  it('titles the edit screen with the load id', async () => {
    await resetApp(users.shipper);
    renderAppAt('/loads/edit/L-000123');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Updating Load L-000123', level: 1 },
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
  });
});

describe('layout and menus', () => {
  beforeEach(() => resetApp());

  it("shows a shipper's menu: shipper entries only", async () => {
    await resetApp(users.shipper);
    renderAppAt('/loads/shipper');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Pending Shipments' }).getAttribute('href')).toBe(
      '/loads/shipper',
    );
    expect(within(nav).getByRole('link', { name: 'Create A New Shipment' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Search Loads' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Add Organization' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Offers' })).toBeNull();
    // Its users group holds only what a shipper may open.
    fireEvent.click(within(nav).getByRole('button', { name: 'Users' }));
    expect(within(nav).getByRole('link', { name: 'All users' })).toBeTruthy();
    expect(within(nav).queryByRole('button', { name: 'Carriers' })).toBeNull();
  });

  it("shows a Superadmin everything, and highlights the open page's parents", async () => {
    await resetApp(users.admin);
    renderAppAt('/users/carriers/pending');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Add Organization' })).toBeTruthy();
    const usersGroup = within(nav).getByRole('button', { name: 'Users' });
    const carriersGroup = within(nav).getByRole('button', { name: 'Carriers' });
    expect(usersGroup.getAttribute('aria-expanded')).toBe('true');
    expect(usersGroup.closest('li')?.className).toContain('is-active-parent');
    expect(carriersGroup.closest('li')?.className).toContain('is-active-parent');
    const pending = within(carriersGroup.closest('li')!).getByRole('link', { name: 'Pending' });
    expect(pending.getAttribute('aria-current')).toBe('page');
    // A section collapses and opens again.
    const section = within(nav).getByRole('button', { name: 'Loads' });
    fireEvent.click(section);
    expect(within(nav).queryByRole('link', { name: 'Search Loads' })).toBeNull();
    fireEvent.click(section);
    expect(within(nav).getByRole('link', { name: 'Search Loads' })).toBeTruthy();
  });

  it("gives a Superadmin no 'My tours' (a driver's page), and a driver its 'My tours'", async () => {
    await resetApp(users.admin);
    const view = renderAppAt('/loads/shipper');
    let nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Pending Shipments' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'My tours' })).toBeNull();
    view.unmount();

    const { current } = renderAppAt('/driver');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(current()).toBe('/error-pages/error-404');
    cleanup();

    await resetApp(users.driver);
    renderAppAt('/driver');
    nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'My tours' }).getAttribute('href')).toBe(
      '/driver',
    );
  });

  it("shows 'Admin User' in the sidebar when the user has no name, and the e-mail in the header", async () => {
    await resetApp(users.admin);
    renderAppAt('/loads/shipper');
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Admin User')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'User menu of superadmin@example.com' }),
    ).toBeTruthy();
  });

  it("lists a shipper's ratings with two decimals", async () => {
    await resetApp({ ...users.shipper, ratings: { Punctuality: 4.5, Communication: 3.25 } });
    renderAppAt('/loads/shipper');
    const ratings = await screen.findByRole('list', { name: 'Your ratings' });
    expect(ratings.textContent).toContain('Punctuality: 4.50');
    expect(ratings.textContent).toContain('Communication: 3.25');
  });

  it('lists no ratings for a driver', async () => {
    await resetApp({ ...users.driver, ratings: { Punctuality: 4.5 } });
    renderAppAt('/driver');
    await screen.findByRole('heading', { name: 'My tour', level: 1 });
    expect(screen.queryByRole('list', { name: 'Your ratings' })).toBeNull();
  });

  it("offers 'My account' and 'Logout' to a shipper", async () => {
    await resetApp(users.shipper);
    renderAppAt('/loads/shipper');
    fireEvent.click(await screen.findByRole('button', { name: 'User menu of Dana Brooks' }));
    expect(await screen.findByRole('menuitem', { name: 'My account', hidden: true })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Logout', hidden: true })).toBeTruthy();
  });

  it("offers a driver 'Logout' only", async () => {
    await resetApp(users.driver);
    renderAppAt('/driver');
    fireEvent.click(await screen.findByRole('button', { name: 'User menu of Dan Driver' }));
    expect(await screen.findByRole('menuitem', { name: 'Logout', hidden: true })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'My account', hidden: true })).toBeNull();
  });

  it('signs out from the user menu', async () => {
    await resetApp(users.carrier);
    const { current } = renderAppAt('/loads/carrier');
    fireEvent.click(await screen.findByRole('button', { name: 'User menu of Carl Rivers' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Logout', hidden: true }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(current()).toBe('/signin/');
  });

  it('gives /track and /chat pages the bare layout, without the sidebar', async () => {
    await resetApp(users.carrier);
    renderAppAt('/track/tour/7');
    expect(await screen.findByRole('heading', { name: 'Track the tour', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back' })).toBeTruthy();
  });
});

describe('languages', () => {
  beforeEach(() => resetApp());

  it('switches to Arabic from the language menu and lays the page out right to left', async () => {
    renderAppAt('/signin');
    await screen.findByRole('heading', { name: 'Sign in' });

    // Opened from the keyboard, as a dispatcher without a mouse would.
    fireEvent.keyDown(screen.getByLabelText('Language'), { key: 'ArrowDown', code: 'ArrowDown' });
    // jsdom has no layout, so PrimeReact's overlay positioning leaves the panel at display:none.
    fireEvent.click(await screen.findByRole('option', { name: 'العربية', hidden: true }));
    await waitFor(() => expect(i18n.resolvedLanguage).toBe('ar'));

    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(screen.getByRole('button', { name: 'تسجيل الدخول' })).toBeTruthy();
    expect(screen.getByLabelText('كلمة المرور')).toBeTruthy();

    await act(async () => {
      await i18n.changeLanguage('en');
    });
    await waitFor(() => expect(document.documentElement.dir).toBe('ltr'));
  });

  it('translates the menu of a signed-in user', async () => {
    await resetApp(users.carrier);
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    renderAppAt('/loads/carrier');
    const nav = await screen.findByRole('navigation', { name: 'Navigation principale' });
    expect(within(nav).getByRole('link', { name: 'Rechercher des chargements' })).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: 'Rechercher des chargements', level: 1 }),
    ).toBeTruthy();
  });

  it("names the shipper's first Loads entry 'Pending Shipments' in every language", async () => {
    await i18n.loadLanguages([...supportedLanguages]);
    expect(
      Object.fromEntries(
        supportedLanguages.map((lng) => [lng, i18n.getFixedT(lng)('menu.pendingShipments')]),
      ),
    ).toEqual({
      en: 'Pending Shipments',
      zh: '待处理货运',
      es: 'Envíos pendientes',
      fr: 'Expéditions en attente',
      it: 'Spedizioni in sospeso',
      ar: 'الشحنات المعلّقة',
    });
  });
});
