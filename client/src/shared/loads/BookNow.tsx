import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { apiPost, messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { useFormats } from '../format.ts';

/** A load that may carry a Book Now price (a marketplace row, a load's details). */
export type BookableLoad = { id: string; guid: string; bookNowPrice?: number | null };

/** The answer of POST loads/{id}/book: the accepted offer and its tour. */
export type Booked = { proposalId: string; tourId: string };

/** "Book Now $X" on a load with a Book Now price; nothing on one without. */
export function BookNowBadge({ load }: { load: BookableLoad }) {
  const { t } = useTranslation();
  const format = useFormats();
  if (load.bookNowPrice == null) return null;
  return (
    <span className="book-now-badge tabular">
      <i className="pi pi-bolt" aria-hidden="true" />{' '}
      {t('bookNow.badge', { price: format.price(load.bookNowPrice) })}
    </span>
  );
}

/**
 * The carrier's "Book now": a confirmation naming the price, then POST loads/{id}/book; once booked
 * the carrier lands on the tour (`onBooked` instead, when given). A refusal (another carrier was
 * quicker: 'This load has already been booked') is shown as the server words it.
 */
export function BookNowButton({
  load,
  onBooked,
  size,
}: {
  load: BookableLoad;
  onBooked?: (booked: Booked) => void;
  size?: 'small';
}) {
  const { t } = useTranslation();
  const format = useFormats();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // The row can leave the screen while its confirmation is open (another carrier booked the load,
  // or the shipper took it off): the dialog goes with it, so the carrier is told why.
  const leaving = useRef({ open: false, text: '' });
  leaving.current = {
    open: confirming && !busy,
    text: t('bookNow.gone', { guid: load.guid }),
  };
  useEffect(
    () => () => {
      if (leaving.current.open) notify('warn', leaving.current.text);
    },
    [],
  );
  if (load.bookNowPrice == null) return null;
  const price = format.price(load.bookNowPrice);

  const book = async () => {
    setBusy(true);
    try {
      const booked = await apiPost<Booked>(`/loads/${load.id}/book`, {});
      notify('success', t('bookNow.booked', { guid: load.guid, price }));
      if (onBooked) onBooked(booked);
      else navigate(`/track/tour/${booked.tourId}`);
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        type="button"
        size={size}
        severity="success"
        icon="pi pi-bolt"
        label={t('bookNow.action')}
        aria-label={`${t('bookNow.action')} ${load.guid} ${price}`}
        loading={busy}
        disabled={busy}
        onClick={(event) => {
          event.stopPropagation();
          setConfirming(true);
        }}
      />
      <ConfirmDialog
        visible={confirming}
        onHide={() => setConfirming(false)}
        header={t('bookNow.confirmHeader', { guid: load.guid })}
        message={t('bookNow.confirmMessage', { price })}
        icon="pi pi-bolt"
        acceptLabel={t('bookNow.confirm')}
        rejectLabel={t('bookNow.cancel')}
        accept={() => {
          void book();
        }}
      />
    </>
  );
}
