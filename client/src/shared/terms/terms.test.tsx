import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import i18n from '../../i18n/index.ts';
import { LoadSummary } from '../loads/LoadSummary.tsx';
import type { LoadDetail } from '../loads/loads.api.ts';
import { TermsFields } from './TermsFields.tsx';
import { TermsCompact, TermsDetails } from './TermsSummary.tsx';
import {
  type AccessorialTerms,
  defaultTermsOf,
  type TermsFormValues,
  termsFormOf,
  toTerms,
  validateTerms,
} from './terms.ts';

const agreed: AccessorialTerms = {
  freeTimeHours: { pickup: 2, delivery: 3 },
  detentionPerHour: 80,
  detentionCap: 640,
  tonu: 300,
  layoverPerDay: 350,
  lumper: 'carrier-reimbursed',
  graceMinutes: 15,
  disputeWindowHours: 48,
};

/** The fields in a component of their own, as a screen holds them. */
function Harness({ start, errors }: { start: TermsFormValues; errors?: boolean }) {
  const [values, setValues] = useState(start);
  return (
    <>
      <TermsFields
        id="t"
        values={values}
        onChange={setValues}
        errors={errors ? validateTerms(values) : {}}
      />
      <output data-testid="body">{JSON.stringify(toTerms(values))}</output>
    </>
  );
}

describe('accessorial terms', () => {
  beforeEach(async () => {
    await resetApp(users.shipper);
  });

  it('checks each number: required, within its range, and a cap of at least one hour of detention', () => {
    expect(validateTerms(termsFormOf(agreed))).toEqual({});
    // Off: nothing to check, whatever the numbers.
    expect(validateTerms({ ...termsFormOf(agreed), enabled: false, tonu: null })).toEqual({});

    const wrong = validateTerms({
      ...termsFormOf(agreed),
      tonu: null,
      pickupFreeHours: 30,
      disputeWindowHours: 0,
      detentionPerHour: 100,
      detentionCap: 50,
    });
    expect(wrong).toEqual({
      'terms.tonu': { key: 'required' },
      'terms.freeTimeHours.pickup': { key: 'range', values: { min: 0, max: 24 } },
      'terms.disputeWindowHours': { key: 'range', values: { min: 1, max: 720 } },
      'terms.detentionCap': { key: 'capBelowRate' },
    });
  });

  it('sends the terms when on and null when off; the body has the documented shape', () => {
    expect(toTerms(termsFormOf(agreed))).toEqual(agreed);
    expect(toTerms(termsFormOf(agreed, false))).toBeNull();
  });

  it("reads the organization's default terms where the account gives them", () => {
    expect(defaultTermsOf({ shipper: { insuredAmount: 1, defaultTerms: agreed } })).toEqual(agreed);
    expect(defaultTermsOf({ organization: { defaultTerms: agreed } })).toEqual(agreed);
    expect(defaultTermsOf({ shipper: { insuredAmount: 1 } })).toBeNull();
    expect(defaultTermsOf(null)).toBeNull();
  });

  it('shows a message under the field the moment it is wrong, and labels every input', async () => {
    render(<Harness start={termsFormOf(agreed)} errors />);
    const cap = screen.getByLabelText('Detention cap per stop');
    expect(screen.getByLabelText('Free time at pickup (hours)')).toBeTruthy();
    expect(screen.getByLabelText('TONU (truck ordered, not used)')).toBeTruthy();
    expect(screen.getByLabelText('Window to approve or dispute a claim (hours)')).toBeTruthy();
    expect(screen.getByLabelText('Lumper paid by')).toBeTruthy();
    expect(screen.queryByText('The cap cannot be less than one hour of detention')).toBeNull();

    await act(async () => {
      fireEvent.input(cap, { target: { value: '10' } });
      fireEvent.blur(cap);
    });
    expect(
      await screen.findByText('The cap cannot be less than one hour of detention'),
    ).toBeTruthy();
    expect(cap.getAttribute('aria-invalid')).toBe('true');

    // Switched off: the load has no terms and the body says so.
    await act(async () => {
      fireEvent.click(screen.getByLabelText(/Add accessorial terms/));
    });
    expect(screen.queryByLabelText('Detention cap per stop')).toBeNull();
    expect(screen.getByText('No terms')).toBeTruthy();
    expect(screen.getByTestId('body').textContent).toBe('null');
  });

  it('sums the terms up in one line for the marketplace, and reads "No terms" without', () => {
    const { rerender } = render(<TermsCompact of={{ terms: agreed }} />);
    expect(document.body.textContent).toBe(
      'Free 2 h / 3 h · detention $80.00/h, cap $640.00 · TONU $300.00',
    );
    rerender(<TermsCompact of={{ terms: null }} />);
    expect(document.body.textContent).toBe('No terms');
    // A load posted before terms existed carries no `terms` at all.
    rerender(<TermsCompact of={{ guid: 'L-1' }} />);
    expect(document.body.textContent).toBe('No terms');
  });

  it('lists every term in the details, and in Arabic reads right to left', async () => {
    render(<TermsDetails of={{ terms: agreed }} />);
    const section = screen.getByRole('region', { name: 'Accessorial terms' });
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Free time: 2 h at pickup, 3 h at delivery',
      'Detention: $80.00 per hour, up to $640.00 a stop',
      'Grace: 15 min after the appointment',
      'TONU: $300.00',
      'Layover: $350.00 per day',
      'Lumper: paid by the carrier, reimbursed against the receipt',
      'Claims are approved or disputed within 48 h; silence approves them',
    ]);
    await act(async () => {
      await i18n.changeLanguage('ar');
    });
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('region', { name: 'شروط الرسوم الإضافية' })).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('en');
    });
  });

  it('shows "No terms" in the details of a load posted without terms', () => {
    const load = {
      id: 'a1',
      guid: 'L-000001',
      status: 4,
      statusName: 'Open',
      shipper: 'Acme',
      pickupTimestampStart: '2030-01-02T15:00:00.000Z',
      pickupTimestampEnd: null,
      pickupTimezone: 'America/Chicago',
      dropOffTimestampStart: '2030-01-03T15:00:00.000Z',
      dropOffTimestampEnd: null,
      dropoffTimezone: 'America/Chicago',
      expiration: '2030-01-01T15:00:00.000Z',
      expirationTimezone: 'America/Chicago',
      loadTypeId: 1,
      loadAccessories: [],
      loadEquipment: [],
      weight: 1000,
      commodity: 'Paper',
      refNumber: 'R1',
      description: '',
      locations: [],
    } as unknown as LoadDetail;
    render(<LoadSummary load={load} showMap={false} />);
    const section = screen.getByRole('region', { name: 'Accessorial terms' });
    expect(within(section).getByText('No terms')).toBeTruthy();
  });
});
