import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TourChangePayload } from '../../../domain/realtime/events.ts';
import i18n from '../i18n/index.ts';
import { publishRealtime } from '../realtime/useRealtime.ts';
import { renderAppAt, resetApp } from '../test/renderApp.tsx';
import { users } from '../test/users.ts';

/** A `tour:event` as the server pushes it to both organizations. */
const pushed = (type: string, data: Record<string, unknown>): TourChangePayload => ({
  tourId: 't1',
  loadId: 'l1',
  loadGuid: 'L-000108',
  status: 2,
  event: { id: 'e1', type, data, at: '2030-01-01T10:00:00.000Z' },
});
const held = pushed('PickupHeld', { tourId: 't1', reasons: ['wrong_code', 'truck_far_away'] });

describe("the dock's hold reaches the signed-in users at once", { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.shipper));
  afterEach(() => cleanup());

  it('shows a warning snackbar naming the load and the reasons, on whatever page is open', async () => {
    renderAppAt('/terms');
    await screen.findByRole('heading', { name: 'Terms and conditions', level: 1 });
    await act(async () => publishRealtime('tour:event', held));
    expect(
      await screen.findByText(
        "Pickup held at the dock for load L-000108: The code is not the assigned driver's current code; The truck's ELD puts it more than 5 miles from the pickup",
      ),
    ).toBeTruthy();
  });

  it('says it in the language of the page', async () => {
    renderAppAt('/terms');
    await screen.findByRole('heading', { level: 1 });
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    await act(async () => publishRealtime('tour:event', held));
    expect(
      await screen.findByText(/^Enlèvement bloqué au quai pour le chargement L-000108 :/),
    ).toBeTruthy();
  });

  it('keeps quiet about the other tour events (a release, a note)', async () => {
    renderAppAt('/terms');
    await screen.findByRole('heading', { name: 'Terms and conditions', level: 1 });
    await act(async () => {
      publishRealtime('tour:event', pushed('PickupReleased', { tourId: 't1' }));
      publishRealtime('tour:event', pushed('TourEventAdded', { type: 'note', message: 'Hi' }));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText(/Pickup held at the dock/)).toBeNull();
  });
});
