import { Button } from 'primereact/button';
import { InputSwitch } from 'primereact/inputswitch';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocal } from '../../shared/format.ts';
import type { LocationSharing } from './useLocationSharing.ts';

/** Location sharing, switchable, with a plain statement of what is happening right now. */
export function LocationPanel({ sharing, active }: { sharing: LocationSharing; active: boolean }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const { enabled, setEnabled, status, last, queue } = sharing;
  const live = status === 'on';
  const headline = !active
    ? t('driver.location.notActive')
    : !enabled
      ? t('driver.location.off')
      : status === 'ask'
        ? t('driver.location.ask')
        : status === 'denied'
          ? t('driver.location.denied')
          : status === 'unavailable'
            ? t('driver.location.unavailable')
            : status === 'error'
              ? t('driver.location.error')
              : status === 'waiting'
                ? t('driver.location.waiting')
                : t('driver.location.on');
  const tone =
    !active || !enabled
      ? 'off'
      : live
        ? 'on'
        : status === 'waiting' || status === 'ask'
          ? 'waiting'
          : 'problem';

  return (
    <section
      className={`card driver-card location-panel is-${tone}`}
      aria-labelledby={`${id}-title`}
    >
      <div className="location-head">
        <span className="location-icon" aria-hidden="true">
          <i
            className={`pi ${tone === 'on' ? 'pi-wifi' : tone === 'problem' ? 'pi-exclamation-triangle' : 'pi-map-marker'}`}
          />
        </span>
        <div className="location-text">
          <h2 id={`${id}-title`}>{t('driver.location.title')}</h2>
          <p role="status" className="location-headline">
            {headline}
          </p>
        </div>
        <InputSwitch
          inputId={`${id}-switch`}
          checked={enabled}
          onChange={(event) => setEnabled(Boolean(event.value))}
          aria-label={t('driver.location.switch')}
          // PrimeReact gives the wrapper role=checkbox around the input's role=switch (nested-interactive): the input alone is the control.
          pt={{ root: { role: undefined, 'aria-checked': undefined } }}
        />
      </div>
      {enabled && active && status === 'ask' && (
        <Button
          type="button"
          className="location-start"
          icon="pi pi-map-marker"
          label={t('driver.location.start')}
          onClick={sharing.start}
        />
      )}
      {enabled && active && status !== 'ask' && (
        <dl className="location-facts tabular">
          {last && (
            <>
              <dt>{t('driver.location.lastFix')}</dt>
              <dd>
                {formatLocal(last.recordedAt, lng, false)}
                {last.speed !== null
                  ? ` · ${t('driver.location.speed', { speed: Math.round(last.speed) })}`
                  : ''}
              </dd>
            </>
          )}
          <dt>{t('driver.location.lastSent')}</dt>
          <dd>
            {queue.lastSentAt
              ? formatLocal(queue.lastSentAt, lng, false)
              : t('driver.location.notYet')}
          </dd>
          {queue.pending > 0 && (
            <>
              <dt>{t('driver.location.waitingToSend')}</dt>
              <dd className={queue.failing ? 'location-failing' : undefined}>
                {queue.pending}
                {queue.failing ? ` · ${t('driver.location.retrying')}` : ''}
              </dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
