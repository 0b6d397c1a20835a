import { Button } from 'primereact/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { stopKind } from '../../shared/tours/StopList.tsx';
import { type TourStopView, toursApi } from '../../shared/tours/tours.api.ts';

/** The next stop: where, who to call, how to get there, and "arrived" / "left" for the timeline. */
export function NextStopCard({
  tourId,
  stop,
  onDone,
}: {
  tourId: string;
  stop: TourStopView;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const kind = stopKind(stop.locationType);
  const phone = stop.contactPhone?.replace(/[^\d+]/g, '');
  // The phone's own maps app picks the route; nothing is fetched from here.
  const navigateHref = `geo:${stop.latitude},${stop.longitude}?q=${stop.latitude},${stop.longitude}(${encodeURIComponent(stop.name)})`;

  const record = async (type: 'arrived' | 'departed') => {
    setSaving(true);
    try {
      await toursApi.addEvent(tourId, { type, message: '', stopId: stop.id });
      notify(
        'success',
        type === 'arrived'
          ? t('driver.stop.arrivedDone', { name: stop.name })
          : t('driver.stop.departedDone', { name: stop.name }),
      );
      onDone();
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section
      className={`card driver-card next-stop stop-${kind}`}
      aria-labelledby="next-stop-title"
    >
      <p className="next-stop-kind">
        <span className="stop-marker" aria-hidden="true" /> {t('driver.stop.next')} ·{' '}
        {t(`tours.stops.types.${stop.locationType}` as 'tours.stops.types.1')}
      </p>
      <h2 id="next-stop-title">{stop.name}</h2>
      <address className="next-stop-address">{stop.address}</address>
      {stop.number && <p className="muted">{t('driver.stop.number', { number: stop.number })}</p>}
      {(stop.contactName || stop.contactPhone) && (
        <p className="next-stop-contact">
          <i className="pi pi-user" aria-hidden="true" />{' '}
          {[stop.contactName, stop.contactPhone].filter(Boolean).join(' · ')}
        </p>
      )}
      <div className="next-stop-actions">
        {phone && (
          <a className="p-button p-button-outlined" href={`tel:${phone}`}>
            <i className="pi pi-phone p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('driver.stop.call')}</span>
          </a>
        )}
        <a className="p-button p-button-outlined" href={navigateHref}>
          <i className="pi pi-directions p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('driver.stop.navigate')}</span>
        </a>
        {!stop.arrived ? (
          <Button
            type="button"
            outlined
            severity="secondary"
            icon="pi pi-map-marker"
            label={t('driver.stop.arrived')}
            loading={saving}
            onClick={() => void record('arrived')}
          />
        ) : (
          <Button
            type="button"
            outlined
            severity="secondary"
            icon="pi pi-directions"
            label={t('driver.stop.departed')}
            loading={saving}
            onClick={() => void record('departed')}
          />
        )}
      </div>
    </section>
  );
}
