import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { Skeleton } from 'primereact/skeleton';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { formatDuration } from '../../shared/claims/DetentionClock.tsx';
import { FacilityTagForm } from '../../shared/facilities/FacilityTagForm.tsx';
import {
  type FacilityAnswer,
  FIGURES_FROM,
  facilitiesApi,
} from '../../shared/facilities/facilities.api.ts';
import { formatLocal } from '../../shared/format.ts';
import '../../shared/facilities/facilities.css';

const percent = (share: number, lng: string) =>
  new Intl.NumberFormat(lng, { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** A weekday's name (1 Monday to 7 Sunday) in the page's language: 2024-01-01 was a Monday. */
const weekdayName = (weekday: number, lng: string) =>
  new Intl.DateTimeFormat(lng, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, weekday)),
  );
const hourName = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * /facilities/:id: a facility's page for any signed-in user (GET facilities/{id}): time on site
 * (median and p75), on-time and detention shares with the visits behind them (none under three),
 * time on site by weekday and hour of arrival, the drivers' tags and the shippers' replies; the tag
 * form for a driver whose tour left it, the reply form for its shipper.
 */
export default function FacilityPage({ titleKey, params }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = params.id ?? '';
  const replyId = useId();
  const [facility, setFacility] = useState<FacilityAnswer | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const [replyError, setReplyError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setFacility(null);
    setFailed(null);
    facilitiesApi.get(id, controller.signal).then(setFacility, (error) => {
      if (controller.signal.aborted) return;
      setFailed(
        error instanceof ApiError && error.status === 404
          ? t('facilities.notFound')
          : t('facilities.failed'),
      );
    });
    return () => controller.abort();
  }, [id, t]);

  const sendReply = async () => {
    setBusy(true);
    try {
      setFacility(await facilitiesApi.reply(id, reply));
      setReply('');
    } catch (error) {
      setReplyError(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const header = (
    <header className="page-header">
      <h1>{facility ? facility.name : t(titleKey)}</h1>
      {facility && <p className="muted">{facility.address}</p>}
    </header>
  );

  if (failed)
    return (
      <section className="page facility-page">
        {header}
        <div className="card">
          <p role="alert">{failed}</p>
        </div>
      </section>
    );
  if (!facility)
    return (
      <section className="page facility-page">
        {header}
        <div className="card" aria-busy="true">
          <Skeleton height="8rem" className="mb-3" />
          <Skeleton height="12rem" />
        </div>
      </section>
    );

  const enough = facility.timeOnSite.median !== null;
  return (
    <section className="page facility-page">
      {header}
      <section className="card" aria-labelledby="facility-figures">
        <h2 id="facility-figures">{t('facilities.timeOnSite')}</h2>
        <p className="muted">{t('facilities.visits', { count: facility.visits })}</p>
        {!enough ? (
          <p role="status">{t('facilities.notEnough', { min: FIGURES_FROM })}</p>
        ) : (
          <dl className="facility-figures">
            <div>
              <dt>{t('facilities.median')}</dt>
              <dd className="tabular">{formatDuration(facility.timeOnSite.median!, t)}</dd>
            </div>
            {facility.timeOnSite.p75 !== null && (
              <div>
                <dt>{t('facilities.p75')}</dt>
                <dd className="tabular">{formatDuration(facility.timeOnSite.p75, t)}</dd>
              </div>
            )}
            {facility.onTimeShare !== null && (
              <div>
                <dt>{t('facilities.onTime')}</dt>
                <dd>
                  {t('facilities.onTimeValue', {
                    share: percent(facility.onTimeShare, lng),
                    count: facility.onTimeVisits,
                  })}
                </dd>
              </div>
            )}
            {facility.detentionShare !== null && (
              <div>
                <dt>{t('facilities.detention')}</dt>
                <dd>
                  {t('facilities.detentionValue', {
                    share: percent(facility.detentionShare, lng),
                  })}
                </dd>
              </div>
            )}
          </dl>
        )}
      </section>

      {facility.byWeekday.length > 0 && (
        <section className="card" aria-labelledby="facility-weekdays">
          <h2 id="facility-weekdays">{t('facilities.byWeekday')}</h2>
          <p className="field-hint">{t('facilities.byWeekdayHint', { min: FIGURES_FROM })}</p>
          <table className="facility-weekdays" aria-labelledby="facility-weekdays">
            <thead>
              <tr>
                <th scope="col">{t('facilities.day')}</th>
                <th scope="col">{t('facilities.hour')}</th>
                <th scope="col">{t('facilities.median')}</th>
                <th scope="col">{t('facilities.visitsColumn')}</th>
              </tr>
            </thead>
            <tbody>
              {facility.byWeekday.map((cell) => (
                <tr key={`${cell.weekday}-${cell.hour}`}>
                  <td>{weekdayName(cell.weekday, lng)}</td>
                  <td className="tabular">{hourName(cell.hour)}</td>
                  <td className="tabular">
                    {cell.median === null ? '—' : formatDuration(cell.median, t)}
                  </td>
                  <td className="tabular">{cell.visits}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section className="card" aria-labelledby="facility-tags">
        <h2 id="facility-tags">{t('facilities.tagsTitle')}</h2>
        <ul className="facility-tags">
          {facility.tags.map(({ tag, count }) => (
            <li key={tag}>
              <span>{t(`facilities.tags.${tag}`)}</span>{' '}
              <span className="muted">{t('facilities.tagCount', { count })}</span>
            </li>
          ))}
        </ul>
        {facility.canTag && <FacilityTagForm facilityId={facility.id} onSent={setFacility} />}
      </section>

      <section className="card" aria-labelledby="facility-replies">
        <h2 id="facility-replies">{t('facilities.repliesTitle')}</h2>
        {facility.replies.length === 0 ? (
          <p className="muted">{t('facilities.noReplies')}</p>
        ) : (
          <ul className="facility-replies">
            {facility.replies.map((item) => (
              <li key={item.id}>
                <p>{item.text}</p>
                <small className="muted">
                  {item.organization ?? ''} · {formatLocal(item.at, lng)}
                </small>
              </li>
            ))}
          </ul>
        )}
        {facility.canReply && (
          <form
            className="facility-reply-form"
            onSubmit={(event) => {
              event.preventDefault();
              void sendReply();
            }}
          >
            <label htmlFor={replyId}>{t('facilities.replyLabel')}</label>
            <InputTextarea
              id={replyId}
              value={reply}
              rows={3}
              maxLength={1000}
              onChange={(event) => {
                setReply(event.target.value);
                setReplyError(null);
              }}
              aria-invalid={replyError ? true : undefined}
            />
            {replyError && (
              <small className="p-error" role="alert">
                {replyError}
              </small>
            )}
            <Button
              type="submit"
              label={t('facilities.sendReply')}
              icon="pi pi-send"
              disabled={reply.trim() === '' || busy}
              loading={busy}
            />
          </form>
        )}
      </section>
    </section>
  );
}
