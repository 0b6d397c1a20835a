import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, get } from '../../test/marketplace.testing.tsx';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { DriverFacilities } from './DriverFacilities.tsx';

configure({ asyncUtilTimeout: 15_000 });

const stops = [
  { id: 's1', name: 'Acme Warehouse', departed: true },
  { id: 's2', name: 'Lone Star DC', departed: false },
];

describe("the facilities on the driver's page", { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.driver));

  it("shows each stop's facility figure and link, and the tag form once a stop is left", async () => {
    const server = fakeServer(
      get('/api/tours/t1/facilities', [
        { stopId: 's1', facilityId: 'f1', facility: { timeOnSiteMedian: 95, visits: 8 } },
        { stopId: 's2', facilityId: 'f2', facility: { timeOnSiteMedian: null, visits: 1 } },
      ]),
      (request) =>
        request.method === 'POST' && request.path === '/api/facilities/f1/tags'
          ? { status: 201, body: {} }
          : undefined,
    );
    const location = memoryLocation({ path: '/driver' });
    render(
      <Router hook={location.hook}>
        <DriverFacilities tourId="t1" stops={stops} />
      </Router>,
    );
    const card = await screen.findByRole('region', { name: 'Facilities on this tour' });
    const [left, next] = within(card).getAllByRole('listitem');
    expect(
      within(left!).getByText(/Facility: 1 h 35 min on site, median of 8 visits/),
    ).toBeTruthy();
    expect(within(left!).getByRole('link', { name: 'Facility page' }).getAttribute('href')).toBe(
      '/facilities/f1',
    );
    expect(within(next!).getByText(/Facility: figures from 3 visits \(1 so far\)/)).toBeTruthy();
    expect(within(next!).queryByRole('button', { name: 'Send tags' })).toBeNull();
    fireEvent.click(within(left!).getByLabelText('Entrance'));
    fireEvent.click(within(left!).getByRole('button', { name: 'Send tags' }));
    expect(await within(left!).findByText('Thank you, your tags are saved.')).toBeTruthy();
    expect(server.calls('POST', '/api/facilities/f1/tags')[0]?.body).toEqual({
      tags: ['entrance'],
    });
  });
});
