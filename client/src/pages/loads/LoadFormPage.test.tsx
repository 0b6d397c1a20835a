import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DateTime } from 'luxon';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { fakeServer, get, renderMarketplaceAt } from '../../test/marketplace.testing.tsx';

// The first render loads the page's chunk (PrimeReact, the form) on demand.

const ZONE = 'America/New_York'; // jsdom runs in UTC, not one of the six: the form starts on New York
const wall = (shift: Record<string, number>) =>
  DateTime.now().setZone(ZONE).plus(shift).toFormat("yyyy-MM-dd'T'HH:mm");

const chicago = {
  id: 'p1',
  name: 'Chicago, IL',
  address: 'Chicago, IL 60601',
  latitude: 41.88,
  longitude: -87.63,
  city: 'Chicago',
  state: 'IL',
  zip: '60601',
};
const dallas = {
  id: 'p2',
  name: 'Dallas, TX',
  address: 'Dallas, TX 75201',
  latitude: 32.78,
  longitude: -96.8,
  city: 'Dallas',
  state: 'TX',
  zip: '75201',
};
const savedDock = {
  id: '7b0e4a4e-58a8-4b53-9b0f-0d5c2a1f1a11',
  name: 'Memphis Dock 4',
  address: 'Memphis, TN 38103',
  city: 'Memphis',
  state: 'TN',
  latitude: 35.15,
  longitude: -90.05,
  contactName: 'Rita',
  contactPhone: '901-555-0101',
  number: 'D4',
  locationType: 3,
};

const defaultTerms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 70,
  detentionCap: 500,
  tonu: 250,
  layoverPerDay: 300,
  lumper: 'shipper',
  graceMinutes: 30,
  disputeWindowHours: 48,
};

const places = (request: { method: string; path: string }) => {
  if (request.method !== 'GET' || !request.path.startsWith('/api/places/autocomplete'))
    return undefined;
  const q = new URL(request.path, 'http://x').searchParams.get('q')?.toLowerCase() ?? '';
  return { body: [chicago, dallas].filter((place) => place.name.toLowerCase().startsWith(q)) };
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its label; a required field's label ends with ' *'. */
const field = (label: string | RegExp) =>
  screen.getByLabelText(
    typeof label === 'string' ? new RegExp(`^${escapeRegExp(label)}( \\*)?$`) : label,
  ) as HTMLInputElement;
const type = (label: string | RegExp, value: string) =>
  fireEvent.change(field(label), { target: { value } });
const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));
const back = () => screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement;
const expectText = async (text: string) => expect(await screen.findByText(text)).toBeTruthy();

/** An option of an open PrimeReact list by its text (its checkbox muddles the accessible name). */
const findOption = (text: string | RegExp) =>
  waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('[role=option]')].find((option) =>
      typeof text === 'string'
        ? option.textContent?.trim() === text
        : text.test(option.textContent ?? ''),
    );
    if (!found) throw new Error(`no option ${String(text)}`);
    return found;
  });

async function chooseIn(label: string, ...options: string[]) {
  // PrimeReact's multi-select opens its panel on a click of the box around the hidden input.
  const box = field(label).closest('.p-multiselect') as HTMLElement;
  fireEvent.click(box);
  for (const option of options) fireEvent.click(await findOption(option));
  fireEvent.keyDown(box, { key: 'Escape', code: 'Escape' });
}

async function fillGeneralInfo(pickupAt = wall({ days: 2 })) {
  type('Pickup date and time', pickupAt);
  type('Dropoff date and time', wall({ days: 3 }));
  type('Offer expiration', wall({ days: 1 }));
  await chooseIn('Select Load Equipment', '53 ft Reefer');
}

async function pickPlace(stop: HTMLElement, text: string, name: string) {
  fireEvent.change(within(stop).getByRole('combobox', { name: /Location/ }), {
    target: { value: text },
  });
  fireEvent.click(await within(stop).findByRole('option', { name: new RegExp(name) }));
}

describe('the load form', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it('moves through its three steps with Back disabled on the first, keeping what was typed', async () => {
    fakeServer(get('/api/loads/list/getSavedLocations', []), places);
    renderMarketplaceAt('/load');
    expect(await screen.findByRole('heading', { name: 'General info', level: 2 })).toBeTruthy();
    expect(back().disabled).toBe(true);

    const pickupAt = wall({ days: 2 });
    await fillGeneralInfo(pickupAt);
    next();
    expect(await screen.findByRole('heading', { name: 'Locations', level: 2 })).toBeTruthy();
    expect(back().disabled).toBe(false);

    fireEvent.click(back());
    expect(await screen.findByRole('heading', { name: 'General info', level: 2 })).toBeTruthy();
    expect(field('Pickup date and time').value).toBe(pickupAt);
    expect(back().disabled).toBe(true);
  });

  it("shows every date, zone and equipment message of 'General info' on its field before any request", async () => {
    const server = fakeServer(get('/api/loads/list/getSavedLocations', []));
    renderMarketplaceAt('/load');
    await screen.findByRole('heading', { name: 'General info', level: 2 });

    next();
    await expectText('Please select at least one load equipment');

    // A past date is refused in the picker itself…
    type('Pickup date and time', wall({ hours: -3 }));
    await expectText('Please select date that is not in the past.');
    // …and by the section-5 rules on Next.
    fireEvent.click(screen.getByLabelText('Set a latest pickup time'));
    fireEvent.click(screen.getByLabelText('Set a latest dropoff time'));
    type('Latest pickup', wall({ hours: -4 }));
    type('Dropoff date and time', wall({ hours: -5 }));
    type('Latest dropoff', wall({ hours: -6 }));
    type('Offer expiration', wall({ hours: -4 }));
    next();
    await expectText("Start can't be before current date and time.");
    await expectText("Deadline can't be before pickup start date");
    await expectText("Dropoff can't be before pickup start date");
    await expectText("Deadline can't be before dropoff start date");
    await expectText("Expiration can't be before current date and time.");

    type('Pickup date and time', wall({ days: 2 }));
    type('Offer expiration', wall({ days: 3 }));
    next();
    await expectText("Expiration can't be after pickup start date");

    // The zone picker can be cleared: the zone is required.
    const zone = document
      .getElementById('pickupTimestampStart-zone')!
      .closest('.p-dropdown') as HTMLElement;
    fireEvent.pointerUp(zone.querySelector('.p-dropdown-clear-icon')!);
    next();
    await expectText('Please select a timezone');

    expect(screen.getByRole('heading', { name: 'General info', level: 2 })).toBeTruthy();
    expect(server.calls('POST', '/api/loads')).toHaveLength(0);
  });

  it("shows every stop message of 'Locations', 'No results.', 'No saved locations', and numbers only on pickup and dropoff", async () => {
    const server = fakeServer(get('/api/loads/list/getSavedLocations', []), places);
    renderMarketplaceAt('/load');
    await screen.findByRole('heading', { name: 'General info', level: 2 });
    await fillGeneralInfo();
    next();
    await screen.findByRole('heading', { name: 'Locations', level: 2 });

    const [pickup, dropoff] = screen
      .getAllByRole('group')
      .filter((element) => element.tagName === 'FIELDSET');
    expect(within(pickup).getByLabelText('Pickup number')).toBeTruthy();
    expect(within(dropoff).getByLabelText('Dropoff number')).toBeTruthy();
    expect(within(pickup).getByText('e.g. 555 555 5555', { selector: 'small' })).toBeTruthy();
    expect(
      within(pickup).getByText('Place data: GeoNames (geonames.org), licensed under CC BY 4.0.'),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add extra stop' }));
    const stops = screen.getAllByRole('group').filter((element) => element.tagName === 'FIELDSET');
    expect(stops).toHaveLength(3);
    expect(within(stops[1]).queryByLabelText(/number/)).toBeNull();
    expect(within(stops[2]).getByLabelText('Dropoff number')).toBeTruthy();
    fireEvent.click(within(stops[1]).getByRole('button', { name: 'Remove the stop' }));
    expect(
      screen.getAllByRole('group').filter((element) => element.tagName === 'FIELDSET'),
    ).toHaveLength(2);

    // A typed place that matches nothing, and an empty saved-locations list.
    fireEvent.change(within(pickup).getByRole('combobox', { name: /Location/ }), {
      target: { value: 'Zzyzx' },
    });
    await within(pickup).findByText('No results.');
    fireEvent.click(within(pickup).getByLabelText('Saved location').closest('.p-dropdown')!);
    await expectText('No saved locations');

    const phones = screen.getAllByLabelText('Contact phone');
    fireEvent.change(phones[0], { target: { value: '555-12' } });
    fireEvent.change(within(dropoff).getByLabelText(/Facility Name/), { target: { value: 'ab' } });
    next();
    // Typed but not picked, and not typed at all.
    expect(await within(pickup).findByText('Please select a valid location')).toBeTruthy();
    expect(within(dropoff).getByText('Please select a valid location.')).toBeTruthy();
    expect(within(pickup).getByText('Please enter the facility name.')).toBeTruthy();
    expect(
      within(dropoff).getByText('Please enter the name with more then 3 characters.'),
    ).toBeTruthy();
    expect(
      within(pickup).getByText(
        'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Locations', level: 2 })).toBeTruthy();
    expect(server.calls('POST', '/api/loads')).toHaveLength(0);
  });

  it("shows every 'Load Details' message, then posts the load and goes back to the shipper's loads", async () => {
    const server = fakeServer(
      get('/api/loads/list/getSavedLocations', [savedDock]),
      // The organization's default accessorial terms fill the load's in.
      get('/api/account', { shipper: { insuredAmount: 1, signatureFileId: null, defaultTerms } }),
      places,
      (request) =>
        request.method === 'POST' && request.path === '/api/loads'
          ? { status: 201, body: { id: 'a1', guid: 'L-000001' } }
          : undefined,
      get('/api/loads/shipper', {
        page: 1,
        pageSize: 10,
        total: 0,
        totalPages: 0,
        data: [],
        actions: [],
      }),
    );
    const { current } = renderMarketplaceAt('/load');
    await screen.findByRole('heading', { name: 'General info', level: 2 });
    const pickupAt = wall({ days: 2 });
    await fillGeneralInfo(pickupAt);
    next();
    await screen.findByRole('heading', { name: 'Locations', level: 2 });

    fireEvent.click(screen.getByRole('button', { name: 'Add extra stop' }));
    const [pickup, extra, dropoff] = screen
      .getAllByRole('group')
      .filter((element) => element.tagName === 'FIELDSET');
    await pickPlace(pickup, 'chi', 'Chicago');
    fireEvent.change(within(pickup).getByLabelText(/Facility Name/), {
      target: { value: 'Chicago Cold Storage' },
    });
    fireEvent.change(within(pickup).getByLabelText('Contact phone'), {
      target: { value: '(312) 555-0100' },
    });
    fireEvent.change(within(pickup).getByLabelText('Pickup number'), {
      target: { value: 'PU-778' },
    });
    fireEvent.click(within(pickup).getByLabelText('Save this location for later loads'));
    // The extra stop comes from a saved location.
    fireEvent.click(within(extra).getByLabelText('Saved location').closest('.p-dropdown')!);
    fireEvent.click(await findOption(/Memphis Dock 4/));
    await pickPlace(dropoff, 'dal', 'Dallas');
    fireEvent.change(within(dropoff).getByLabelText(/Facility Name/), {
      target: { value: 'Dallas DC' },
    });
    next();
    await screen.findByRole('heading', { name: 'Load Details', level: 2 });

    fireEvent.click(screen.getByRole('button', { name: 'Post the load' }));
    await expectText('Please enter load accessories');
    await expectText('Please enter weight');
    await expectText('Please enter reference number');
    await expectText('Please enter commodity');
    expect(server.calls('POST', '/api/loads')).toHaveLength(0);
    expect((screen.getByLabelText('Additional comments') as HTMLTextAreaElement).rows).toBe(5);
    expect(screen.getByText("Filled in from your organization's default terms.")).toBeTruthy();
    expect((screen.getByLabelText('Detention cap per stop') as HTMLInputElement).value).toBe(
      '$500.00',
    );

    await chooseIn('Load Accessories', 'Liftgate');
    type(/^Weight \(LBS\)/, '42000');
    type(/^Shipper Reference Number/, 'PO-99812');
    type(/^Commodity/, 'Frozen berries');
    type('Preferred carriers first for N hours', '6');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Post the load' }));
    });

    await waitFor(() => expect(current()).toBe('/loads/shipper'));
    const [posted] = server.calls('POST', '/api/loads');
    const body = posted.body as Record<string, any>;
    expect(body).toMatchObject({
      pickupTimestampStart: pickupAt,
      pickupTimezone: ZONE,
      loadEquipment: [15],
      loadAccessories: [4],
      weight: 42000,
      refNumber: 'PO-99812',
      commodity: 'Frozen berries',
      rate: 1,
      rateTypeId: 1,
      loadTypeId: 1,
    });
    expect(
      body.locations.map((stop: any) => [stop.locationType, stop.name, stop.latitude]),
    ).toEqual([
      [1, 'Chicago Cold Storage', 41.88],
      [3, 'Memphis Dock 4', 35.15],
      [4, 'Dallas DC', 32.78],
    ]);
    expect(body.locations[0]).toMatchObject({
      saveLocation: true,
      number: 'PU-778',
      contactPhone: '(312) 555-0100',
    });
    expect(body.locations[1]).toMatchObject({ savedLocationId: savedDock.id });
    expect(body.terms).toEqual(defaultTerms);
    expect(body.audience).toEqual({ preferredOnlyHours: 6 });
  });

  it("edits a stored load under 'Updating Load {id}' and names a zone outside the list", async () => {
    const stored = {
      id: 'a2',
      guid: 'L-000123',
      status: 4,
      statusName: 'Created',
      shipper: 'Acme',
      postedAt: new Date().toISOString(),
      pickupTimestampStart: DateTime.now().plus({ days: 2 }).toUTC().toISO(),
      pickupTimestampEnd: null,
      pickupTimezone: 'Europe/Paris',
      dropOffTimestampStart: DateTime.now().plus({ days: 3 }).toUTC().toISO(),
      dropOffTimestampEnd: null,
      dropoffTimezone: ZONE,
      expiration: DateTime.now().plus({ days: 1 }).toUTC().toISO(),
      expirationTimezone: ZONE,
      loadTypeId: 1,
      carriersSortingTypeId: 1,
      loadAccessories: [10],
      loadEquipment: [15],
      description: '',
      weight: 1000,
      commodity: 'Paper',
      refNumber: 'R1',
      locations: [
        {
          id: 's1',
          locationType: 1,
          address: 'Chicago, IL',
          city: 'Chicago',
          state: 'IL',
          name: 'Dock A',
          latitude: 41.88,
          longitude: -87.63,
          contactName: null,
          contactPhone: null,
          number: null,
        },
        {
          id: 's2',
          locationType: 4,
          address: 'Dallas, TX',
          city: 'Dallas',
          state: 'TX',
          name: 'Dock B',
          latitude: 32.78,
          longitude: -96.8,
          contactName: null,
          contactPhone: null,
          number: null,
        },
      ],
      contactsHidden: false,
      acceptedProposalId: null,
      price: null,
      tourId: null,
      contractFileId: null,
      cancelMessage: null,
      canEdit: true,
    };
    fakeServer(get('/api/loads/list/getSavedLocations', []), get('/api/loads/a2', stored));
    renderMarketplaceAt('/loads/edit/a2');
    expect(
      await screen.findByRole('heading', { name: 'Updating Load L-000123', level: 1 }),
    ).toBeTruthy();
    await waitFor(() => expect(field('Pickup date and time').value).not.toBe(''));
    next();
    await expectText('Please select a valid timezone');
  });
});
