import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasAny, TOUR_ADD_EVENT } from '../../../../domain/permissions.ts';
import { messageOf } from '../../api/http.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { notify } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import { cityOf, formatPrice } from '../../shared/format.ts';
import { StopList } from '../../shared/tours/StopList.tsx';
import {
  type TimelineEntry,
  type TimelineType,
  type TourDetail,
  toursApi,
} from '../../shared/tours/tours.api.ts';
import { TourTimeline } from '../../shared/tours/TourTimeline.tsx';
import { PodView } from '../../shared/pod/PodView.tsx';
import { ClaimsPanel } from '../../shared/claims/ClaimsPanel.tsx';
import { isActiveTour } from '../../shared/tours/tourSteps.ts';
import { useTourChannel } from '../../shared/tours/tourChannel.ts';

const noteTypes: TimelineType[] = ['note', 'delay', 'issue'];

/** One tour: its stops, its timeline (live) and, for the parties who may, a note for the timeline. */
export function TourDetailDialog({ tourId, onClose }: { tourId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const user = useAtomValue(authUserAtom);
  const [tour, setTour] = useState<TourDetail | null>(null);
  const [events, setEvents] = useState<TimelineEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [noteType, setNoteType] = useState<TimelineType>('note');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const canAddNote =
    hasAny(user?.permissions, TOUR_ADD_EVENT) && tour !== null && isActiveTour(tour.status);

  const refresh = useCallback(async () => {
    try {
      const [detail, timeline] = await Promise.all([
        toursApi.tour(tourId),
        toursApi.events(tourId),
      ]);
      setTour(detail);
      setEvents(timeline);
    } catch (failure) {
      notify('error', messageOf(failure));
    } finally {
      setLoading(false);
    }
  }, [tourId]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useTourChannel(tourId, { onChange: () => void refresh(), onReconnect: () => void refresh() });

  const addNote = async () => {
    if (note.trim() === '') {
      setError(t('tours.note.required'));
      return;
    }
    setSaving(true);
    try {
      await toursApi.addEvent(tourId, { type: noteType, message: note.trim() });
      setNote('');
      await refresh();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  const pickup = tour?.stops[0];
  const dropoff = tour?.stops.at(-1);
  return (
    <Dialog
      header={tour ? t('tours.detail.title', { load: tour.loadGuid }) : t('common.loading')}
      visible
      onHide={onClose}
      className="tour-dialog tour-detail"
      breakpoints={{ '960px': '95vw' }}
      style={{ width: '56rem' }}
      // The timeline scrolls inside the dialog: keyboard users reach it to scroll it.
      pt={{ content: { tabIndex: 0 } }}
    >
      {tour && (
        <div className="tour-detail-summary">
          <StatusChip name={tour.statusName} />
          <span>{pickup && dropoff ? `${cityOf(pickup)} → ${cityOf(dropoff)}` : ''}</span>
          {tour.price !== null && <span className="tabular">{formatPrice(tour.price, lng)}</span>}
          <span>
            {tour.assignee?.name
              ? t('tours.detail.driver', { name: tour.assignee.name })
              : t('tours.detail.noDriver')}
          </span>
          {tour.eldTruckName && (
            <span className="muted">{t('tours.detail.truck', { name: tour.eldTruckName })}</span>
          )}
        </div>
      )}
      <div className="tour-detail-grid">
        <section aria-labelledby={`${id}-stops`}>
          <h3 id={`${id}-stops`}>{t('tours.stops.title')}</h3>
          {tour ? (
            <StopList stops={tour.stops} />
          ) : (
            <ul className="is-loading" aria-busy="true">
              {[0, 1].map((index) => (
                <li key={index} className="skeleton-line" />
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby={`${id}-timeline`}>
          <h3 id={`${id}-timeline`}>{t('tours.timeline.title')}</h3>
          {canAddNote && (
            <form
              className="tour-note-form"
              onSubmit={(event) => {
                event.preventDefault();
                void addNote();
              }}
            >
              <Dropdown
                value={noteType}
                options={noteTypes.map((type) => ({
                  value: type,
                  label: t(`tours.timeline.types.${type}`),
                }))}
                onChange={(event) => setNoteType(event.value as TimelineType)}
                aria-label={t('tours.note.type')}
              />
              <InputTextarea
                value={note}
                rows={2}
                autoResize
                maxLength={2000}
                placeholder={t('tours.note.placeholder')}
                aria-label={t('tours.note.label')}
                invalid={Boolean(error)}
                onChange={(event) => {
                  setNote(event.target.value);
                  setError(null);
                }}
              />
              <Button
                type="submit"
                icon="pi pi-send"
                label={t('tours.note.add')}
                loading={saving}
              />
              {error && (
                <small className="p-error" role="alert">
                  {error}
                </small>
              )}
            </form>
          )}
          <TourTimeline entries={events} loading={loading} />
        </section>
      </div>
      {tour && <PodView tourId={tour.id} hideWhenEmpty refreshKey={events.length} />}
      {tour && <ClaimsPanel tourId={tour.id} stopNames={tour.stops.map((stop) => stop.name)} />}
    </Dialog>
  );
}
