import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import i18n from '../../i18n/index.ts';
import type { AccessorialTerms } from '../terms/terms.ts';
import { fakeServer, get } from '../../test/marketplace.testing.tsx';
import type { TimelineEntry, TourStopView } from '../tours/tours.api.ts';
import { CurrentStopClock, DetentionClock } from './DetentionClock.tsx';
import { detentionClock } from './detentionClock.ts';

const terms: AccessorialTerms = {
  freeTimeHours: { pickup: 1, delivery: 2 },
  detentionPerHour: 80,
  detentionCap: 640,
  tonu: 300,
  layoverPerDay: 350,
  lumper: 'carrier-reimbursed',
  graceMinutes: 15,
  disputeWindowHours: 48,
};
// 10:00 AM CST on the delivery's day.
const appointmentAt = '2030-01-15T16:00:00.000Z';
const at = (hhmm: string) => Date.parse(`2030-01-15T${hhmm}:00.000Z`);
const iso = (hhmm: string) => new Date(at(hhmm)).toISOString();

const shown = () => (document.body.textContent ?? '').replace(/\s+/g, ' ');

function clockAt(arrived: string, now: string, withTerms: AccessorialTerms | null = terms) {
  return render(
    <DetentionClock
      stopName="Dallas DC"
      arrivedAt={iso(arrived)}
      appointmentAt={appointmentAt}
      zone="America/Chicago"
      terms={withTerms}
      pickupSide={false}
      now={at(now)}
    />,
  );
}

describe('the detention clock', () => {
  beforeEach(async () => {
    await resetApp(users.driver);
  });

  it('an early truck: the clock starts at the appointment, not at the arrival', () => {
    const waiting = detentionClock({
      arrivedAt: iso('15:30'),
      appointmentAt,
      terms,
      pickupSide: false,
      now: at('15:50'),
    });
    expect(waiting).toMatchObject({ kind: 'waiting', early: true, onSiteMinutes: 0 });
    expect(waiting.clockStartAt).toBe(appointmentAt);

    clockAt('15:30', '17:15');
    expect(screen.getByRole('heading', { name: 'Detention clock' })).toBeTruthy();
    expect(shown()).toContain('Time on site: 1 h 15 min');
    expect(shown()).toContain(
      'Arrived at Jan 15, 9:30 AM CST, before the appointment at Jan 15, 10:00 AM CST: the clock starts at the appointment.',
    );
    expect(shown()).toContain('Detention starts at Jan 15, 12:00 PM CST, after 2 h of free time.');
    expect(shown()).not.toContain('No detention');
  });

  it('a late truck (after the appointment plus the grace) earns no detention, and the screen says why', () => {
    expect(
      detentionClock({
        arrivedAt: iso('16:20'),
        appointmentAt,
        terms,
        pickupSide: false,
        now: at('20:00'),
      }),
    ).toMatchObject({ kind: 'late', amount: null, onSiteMinutes: 220 });
    // Inside the grace it still counts.
    expect(
      detentionClock({
        arrivedAt: iso('16:10'),
        appointmentAt,
        terms,
        pickupSide: false,
        now: at('16:30'),
      }).kind,
    ).toBe('free');

    clockAt('16:20', '20:00');
    expect(shown()).toContain('Time on site: 3 h 40 min');
    expect(shown()).toContain(
      'No detention is earned: the truck arrived at Jan 15, 10:20 AM CST, later than the appointment at Jan 15, 10:00 AM CST plus 15 min of grace.',
    );
    expect(shown()).not.toContain('Detention starts');
  });

  it('past the free time, detention runs at the rate up to the cap', () => {
    const running = detentionClock({
      arrivedAt: iso('15:58'),
      appointmentAt,
      terms,
      pickupSide: false,
      now: at('19:10'),
    });
    expect(running).toMatchObject({
      kind: 'detention',
      detentionMinutes: 70,
      amount: 93.33,
      capped: false,
    });
    expect(
      detentionClock({
        arrivedAt: iso('15:58'),
        appointmentAt,
        terms,
        pickupSide: false,
        // Ten hours of detention ($800) at 10 PM CST: the cap holds it at $640.
        now: Date.parse('2030-01-16T04:00:00.000Z'),
      }),
    ).toMatchObject({ kind: 'detention', detentionMinutes: 600, amount: 640, capped: true });
    // The pickup's own free time (1 hour).
    expect(
      detentionClock({
        arrivedAt: iso('15:58'),
        appointmentAt,
        terms,
        pickupSide: true,
        now: at('17:30'),
      }),
    ).toMatchObject({ kind: 'detention', detentionMinutes: 30 });

    clockAt('15:58', '19:10');
    expect(shown()).toContain('Time on site: 3 h 10 min');
    expect(shown()).toContain('Detention since Jan 15, 12:00 PM CST: 1 h 10 min, $93.33 so far.');
  });

  it('a load without terms shows the time on site and that no detention is paid', async () => {
    clockAt('16:00', '17:00', null);
    expect(shown()).toContain('Time on site: 1 h 00 min');
    expect(shown()).toContain('No terms on this load: no detention is paid.');
    await act(async () => {
      await i18n.changeLanguage('ar');
    });
    expect(document.documentElement.dir).toBe('rtl');
    expect(shown()).toContain('لا شروط على هذه الحمولة');
    await act(async () => {
      await i18n.changeLanguage('en');
    });
  });

  it("times the stop the truck is at from its recorded arrival and the load's appointment and terms", async () => {
    const stop = (id: string, locationType: number, arrived: boolean, departed: boolean) =>
      ({
        id,
        locationType,
        name: id === 's1' ? 'Chicago DC' : 'Dallas DC',
        address: '',
        city: null,
        state: null,
        latitude: 0,
        longitude: 0,
        arrived,
        departed,
      }) satisfies TourStopView;
    const arrival = (stopId: string, at: string): TimelineEntry => ({
      id: `e-${stopId}`,
      type: 'arrived',
      message: '',
      stopId,
      at,
      user: null,
    });
    const server = fakeServer(
      get('/api/loads/l1', {
        id: 'l1',
        pickupTimestampStart: '2030-01-14T16:00:00.000Z',
        pickupTimezone: 'America/Chicago',
        dropOffTimestampStart: appointmentAt,
        dropoffTimezone: 'America/Chicago',
        terms,
      }),
    );
    const tour = { loadId: 'l1', stops: [stop('s1', 1, true, true), stop('s2', 4, true, false)] };
    // Between stops: no clock.
    const { container, rerender } = render(
      <CurrentStopClock
        tour={{ ...tour, stops: [stop('s1', 1, true, true), stop('s2', 4, false, false)] }}
        events={[arrival('s1', '2030-01-14T15:00:00.000Z')]}
      />,
    );
    expect(container.textContent).toBe('');
    rerender(
      <CurrentStopClock
        tour={tour}
        events={[arrival('s1', '2030-01-14T15:00:00.000Z'), arrival('s2', iso('16:20'))]}
      />,
    );
    expect(await screen.findByText(/No detention is earned/)).toBeTruthy();
    expect(shown()).toContain('At Dallas DC');
    expect(shown()).toContain('later than the appointment at Jan 15, 10:00 AM CST plus 15 min');
    expect(server.calls('GET', '/api/loads/l1')).toHaveLength(1);
  });
  it("takes the terms and the appointments from the tour's tracking answer, where the driver reads no load", async () => {
    const stop = (id: string, locationType: number, arrived: boolean, departed: boolean) =>
      ({
        id,
        locationType,
        name: { s1: 'Chicago DC', s2: 'Gary Cross Dock', s3: 'Dallas DC' }[id] ?? id,
        address: '',
        city: null,
        state: null,
        latitude: 0,
        longitude: 0,
        arrived,
        departed,
      }) satisfies TourStopView;
    const server = fakeServer();
    // At the drop between the ends (no appointment there) for 2 h 30 min.
    const arrivedAt = new Date(Date.now() - 150 * 60_000 - 20_000).toISOString();
    render(
      <CurrentStopClock
        tour={{
          loadId: 'l1',
          stops: [
            stop('s1', 1, true, true),
            stop('s2', 3, true, false),
            stop('s3', 4, false, false),
          ],
          detention: {
            terms,
            appointments: [
              { stopId: 's1', at: '2030-01-14T16:00:00.000Z', timezone: 'America/Chicago' },
              { stopId: 's2', at: null, timezone: null },
              { stopId: 's3', at: '2099-01-15T16:00:00.000Z', timezone: 'America/Chicago' },
            ],
          },
        }}
        events={[
          {
            id: 'e-s2',
            type: 'arrived',
            message: '',
            stopId: 's2',
            at: arrivedAt,
            user: null,
          },
        ]}
      />,
    );
    expect(await screen.findByText('At Gary Cross Dock')).toBeTruthy();
    // Counted from the arrival, not from the last stop's appointment: 30 minutes past the 2 free hours.
    expect(shown()).toContain('Time on site: 2 h 30 min');
    expect(shown()).toMatch(/Detention since .*: 30 min, \$40\.00 so far\./);
    expect(server.calls('GET', '/api/loads/l1')).toHaveLength(0);
  });
});
