import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { publishRealtime } from '../../realtime/useRealtime.ts';
import { fakeServer, get, type Received } from '../../test/marketplace.testing.tsx';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import type { Claim } from './claims.api.ts';
import { ClaimsPanel } from './ClaimsPanel.tsx';
import { LumperReceiptCard } from './LumperReceiptCard.tsx';

const detention: Claim = {
  id: 'c1',
  kind: 'detention',
  stopIndex: 1,
  minutes: 60,
  amount: 75,
  status: 'claimed',
  evidence: {
    arrivedAt: '2030-01-15T15:50:00.000Z',
    leftAt: '2030-01-15T19:00:00.000Z',
    appointmentAt: '2030-01-15T16:00:00.000Z',
    positionsInside: Array.from({ length: 38 }, (_, index) => ({
      latitude: 32.7767,
      longitude: -96.797,
      at: new Date(Date.parse('2030-01-15T15:50:00.000Z') + index * 300_000).toISOString(),
    })),
  },
  note: 'Dock 4 was full',
  dueAt: '2030-01-17T19:00:00.000Z',
};
const lumper: Claim = {
  id: 'c2',
  kind: 'lumper',
  stopIndex: 1,
  minutes: null,
  amount: 120,
  status: 'disputed',
  evidence: {
    arrivedAt: null,
    leftAt: null,
    appointmentAt: null,
    positionsInside: [],
    receiptFileId: 'f1',
  },
  note: null,
  dueAt: null,
  disputeReason: 'The receipt is for another load',
};

/** The claims of tour t1; each action moves the claim to its new status and answers it. */
function claimsServer(start: Claim[]) {
  const claims = start.map((claim) => ({ ...claim }));
  const after: Record<string, Claim['status']> = {
    approve: 'approved',
    dispute: 'disputed',
    answer: 'answered',
    settle: 'settled',
  };
  return fakeServer(get('/api/tours/t1/claims', claims), (request: Received) => {
    const match = /^\/api\/tours\/t1\/claims\/(\w+)\/(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match) return undefined;
    const claim = claims.find((entry) => entry.id === match[1])!;
    claim.status = after[match[2]!]!;
    if (match[2] === 'settle') {
      const { amount, note } = request.body as { amount: number; note: string };
      Object.assign(claim, { settledAmount: amount, settlementNote: note });
    }
    return { body: claim };
  });
}

const stops = ['Chicago DC', 'Dallas DC'];
const item = async (name: RegExp) => screen.findByRole('listitem', { name });

describe('the claims panel', () => {
  beforeEach(async () => {
    await resetApp(users.shipper);
  });

  it('shows each claim with its evidence, and the shipper approves one', async () => {
    const server = claimsServer([detention]);
    render(<ClaimsPanel tourId="t1" stopNames={stops} />);
    const claim = await item(/Detention \$75\.00 Claimed/);
    const text = (claim.textContent ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('Stop 2 · Dallas DC');
    expect(text).toContain('Dock 4 was full');
    expect(text).toContain('Positions inside the geofence38');
    expect(within(claim).getByText('Appointment')).toBeTruthy();
    expect(within(claim).getByText('Arrived')).toBeTruthy();
    expect(within(claim).getByText('Left')).toBeTruthy();
    expect(text).toMatch(/Answer by Jan 17/);
    // The shipper's actions only.
    expect(within(claim).queryByRole('button', { name: /Answer the dispute/ })).toBeNull();
    expect(within(claim).queryByRole('button', { name: 'Settle' })).toBeNull();

    await act(async () => {
      fireEvent.click(
        within(claim).getByRole('button', { name: 'Approve the Detention claim of $75.00' }),
      );
    });
    await waitFor(() =>
      expect(server.calls('POST', '/api/tours/t1/claims/c1/approve')).toHaveLength(1),
    );
    expect(await item(/Detention \$75\.00 Approved/)).toBeTruthy();
  });

  it('the shipper disputes with a reason, which is required', async () => {
    const server = claimsServer([detention]);
    render(<ClaimsPanel tourId="t1" stopNames={stops} />);
    const claim = await item(/Detention/);
    await act(async () => {
      fireEvent.click(within(claim).getByRole('button', { name: 'Dispute' }));
    });
    const dialog = await screen.findByRole('dialog', {
      name: 'Dispute the Detention claim of $75.00',
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    });
    expect(within(dialog).getByText('Please fill this in')).toBeTruthy();
    expect(server.calls('POST', '/api/tours/t1/claims/c1/dispute')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Reason for the dispute'), {
      target: { value: 'The truck left the dock at 2 PM' },
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    });
    await waitFor(() =>
      expect(server.calls('POST', '/api/tours/t1/claims/c1/dispute')[0]?.body).toEqual({
        reason: 'The truck left the dock at 2 PM',
      }),
    );
    expect(await item(/Detention \$75\.00 Disputed/)).toBeTruthy();
  });

  it('the carrier answers a dispute, and has nothing to do on a new claim', async () => {
    await resetApp(users.carrier);
    const server = claimsServer([detention, lumper]);
    render(<ClaimsPanel tourId="t1" stopNames={stops} />);
    const fresh = await item(/Detention \$75\.00 Claimed/);
    expect(within(fresh).queryAllByRole('button')).toHaveLength(0);
    const disputed = await item(/Lumper \$120\.00 Disputed/);
    expect(within(disputed).getByRole('button', { name: 'Open the receipt' })).toBeTruthy();
    // The shipper's reason, which the carrier answers.
    expect(disputed.textContent).toContain(
      'Reason for the dispute: The receipt is for another load',
    );
    expect(disputed.textContent).not.toContain('Positions inside the geofence');
    expect(within(disputed).queryByRole('button', { name: /Approve/ })).toBeNull();

    await act(async () => {
      fireEvent.click(within(disputed).getByRole('button', { name: 'Answer the dispute' }));
    });
    const dialog = await screen.findByRole('dialog', {
      name: 'Answer the dispute of the Lumper claim',
    });
    fireEvent.change(within(dialog).getByLabelText('Your answer'), {
      target: { value: 'The receipt is signed by the dock' },
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    });
    await waitFor(() =>
      expect(server.calls('POST', '/api/tours/t1/claims/c2/answer')[0]?.body).toEqual({
        text: 'The receipt is signed by the dock',
      }),
    );
  });

  it('a Superadmin settles a disputed claim with an amount and a note', async () => {
    await resetApp(users.admin);
    const server = claimsServer([
      detention,
      {
        ...lumper,
        status: 'answered',
        answer: 'The dock signed this receipt',
        note: 'The dock signed this receipt',
      },
    ]);
    render(<ClaimsPanel tourId="t1" stopNames={stops} />);
    expect(within(await item(/Detention \$75\.00 Claimed/)).queryAllByRole('button')).toHaveLength(
      0,
    );
    const disputed = await item(/Lumper \$120\.00 Answered/);
    // Both sides' words before the decision.
    expect(disputed.textContent).toContain('The receipt is for another load');
    expect(disputed.textContent).toContain("The carrier's answer: The dock signed this receipt");
    // The answer is also the carrier's note: shown once.
    expect(disputed.textContent?.split('The dock signed this receipt')).toHaveLength(2);
    await act(async () => {
      fireEvent.click(within(disputed).getByRole('button', { name: 'Settle' }));
    });
    const dialog = await screen.findByRole('dialog', {
      name: 'Settle the Lumper claim of $120.00',
    });
    // The claimed amount to start from.
    expect((within(dialog).getByLabelText('Settled amount') as HTMLInputElement).value).toBe(
      '$120.00',
    );
    fireEvent.change(within(dialog).getByLabelText('Settlement note'), {
      target: { value: 'Half: the receipt is partly unreadable' },
    });
    const amount = within(dialog).getByLabelText('Settled amount');
    await act(async () => {
      fireEvent.input(amount, { target: { value: '60' } });
      fireEvent.blur(amount);
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    });
    await waitFor(() =>
      expect(server.calls('POST', '/api/tours/t1/claims/c2/settle')[0]?.body).toEqual({
        amount: 60,
        note: 'Half: the receipt is partly unreadable',
      }),
    );
    expect((await item(/Lumper \$120\.00 Settled/)).textContent).toContain(
      'Settled at $60.00 · Half: the receipt is partly unreadable',
    );
  });

  it('reads the claims again when the socket pushes a claim of this tour', async () => {
    const server = claimsServer([detention]);
    render(<ClaimsPanel tourId="t1" />);
    await item(/Detention/);
    expect(server.calls('GET', '/api/tours/t1/claims')).toHaveLength(1);
    await act(async () =>
      publishRealtime('accessorial.claimed', {
        tourId: 'other',
        claimId: 'x',
        status: 'claimed',
        at: '2026-11-29T10:00:00Z',
      }),
    );
    expect(server.calls('GET', '/api/tours/t1/claims')).toHaveLength(1);
    await act(async () =>
      publishRealtime('accessorial.disputed', {
        tourId: 't1',
        claimId: 'c1',
        status: 'disputed',
        at: '2026-11-29T10:00:00Z',
      }),
    );
    await waitFor(() => expect(server.calls('GET', '/api/tours/t1/claims')).toHaveLength(2));
  });

  it('says so when a tour has no claims, and shows nothing to a driver', async () => {
    claimsServer([]);
    const { unmount } = render(<ClaimsPanel tourId="t1" />);
    expect(await screen.findByText('No claims on this tour yet.')).toBeTruthy();
    unmount();
    await resetApp(users.driver);
    const { container } = render(<ClaimsPanel tourId="t1" />);
    expect(container.textContent).toBe('');
  });
});

describe("the driver's lumper receipt", () => {
  beforeEach(async () => {
    await resetApp(users.driver);
  });

  it("asks for the photo and the amount, then sends both as the tour's lumper claim", async () => {
    const server = fakeServer((request) =>
      request.method === 'POST' && request.path === '/api/tours/t1/lumper'
        ? { status: 201, body: { ...lumper, status: 'claimed' } }
        : undefined,
    );
    render(<LumperReceiptCard tourId="t1" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send the receipt' }));
    });
    expect(screen.getByText('Please add a photo of the receipt')).toBeTruthy();
    expect(screen.getByText('Please enter the amount paid')).toBeTruthy();
    expect(server.calls('POST', '/api/tours/t1/lumper')).toHaveLength(0);

    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'receipt.jpg', {
      type: 'image/jpeg',
    });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Receipt photo'), { target: { files: [photo] } });
    });
    expect(await screen.findByRole('img', { name: 'The receipt' })).toBeTruthy();
    const amount = screen.getByLabelText('Amount paid');
    await act(async () => {
      fireEvent.input(amount, { target: { value: '145.5' } });
      fireEvent.blur(amount);
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send the receipt' }));
    });
    await waitFor(() => expect(server.calls('POST', '/api/tours/t1/lumper')).toHaveLength(1));
    const form = server.calls('POST', '/api/tours/t1/lumper')[0]!.body as FormData;
    expect(JSON.parse(String(form.get('data')))).toEqual({ amount: 145.5 });
    expect(form.get('receipt')).toBeInstanceOf(Blob);
    expect(await screen.findByText('Receipt sent: the lumper claim is recorded.')).toBeTruthy();
  });
});
