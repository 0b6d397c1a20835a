import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/catalog.ts';
import { messageOf } from '../../api/http.ts';
import { HalfStarRating } from '../../components/HalfStarRating.tsx';
import { notify } from '../../state/common.ts';
import { type RatingAnswer, toursApi } from '../../shared/tours/tours.api.ts';

interface Props {
  tourId: string;
  onClose: () => void;
  onDone: () => void;
}

/** The half-star rating of the other side of a delivered tour, criterion by criterion; once only. */
export function RatingDialog({ tourId, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<RatingAnswer | null>(null);
  const [values, setValues] = useState<Record<number, number>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    toursApi
      .rating(tourId)
      .then((result) => live && setAnswer(result))
      .catch((failure: unknown) => live && setError(messageOf(failure)));
    return () => {
      live = false;
    };
  }, [tourId]);

  const criterionName = (criterion: { id: number; name: string }) =>
    t(`tours.rating.criteria.${criterion.id}` as 'tours.rating.criteria.1', {
      defaultValue: criterion.name,
    });
  const rated = answer?.mine ?? null;
  const canRate = Boolean(answer?.open) && rated === null;
  const missing = answer?.criteria.filter((criterion) => !values[criterion.id]) ?? [];

  const submit = async () => {
    if (!answer) return;
    if (missing.length > 0) {
      setError(t('tours.rating.rateEvery'));
      return;
    }
    setSaving(true);
    try {
      await toursApi.rate(
        tourId,
        answer.criteria.map((criterion) => ({
          criteria: criterion.id,
          rating: values[criterion.id],
        })),
      );
      notify('success', t('tours.rating.thanks'));
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  const footer = (
    <div className="dialog-actions">
      <Button
        type="button"
        label={canRate ? t('common.cancel') : t('common.close')}
        text
        onClick={onClose}
        disabled={saving}
      />
      {canRate && (
        <Button
          type="button"
          label={t('tours.rating.submit')}
          icon="pi pi-star"
          loading={saving}
          onClick={() => void submit()}
        />
      )}
    </div>
  );

  const side =
    answer?.side === 'carrier' ? t('tours.rating.theShipper') : t('tours.rating.theCarrier');
  return (
    <Dialog
      header={t('tours.rating.title')}
      visible
      onHide={onClose}
      footer={footer}
      className="tour-dialog"
      breakpoints={{ '640px': '95vw' }}
      style={{ width: '32rem' }}
    >
      {!answer && !error && (
        <ul className="rating-list is-loading" aria-busy="true">
          {[0, 1, 2, 3].map((index) => (
            <li key={index} className="skeleton-line" />
          ))}
        </ul>
      )}
      {answer && !answer.open && rated === null && (
        <p className="muted">{t('tours.rating.notYet')}</p>
      )}
      {answer && (canRate || rated) && (
        <>
          <p className="muted">
            {rated ? t('tours.rating.alreadyRated', { side }) : t('tours.rating.intro', { side })}
          </p>
          <ul className="rating-list">
            {answer.criteria.map((criterion) => {
              const value = rated
                ? (rated.find((entry) => entry.criteria === criterion.id)?.rating ?? null)
                : (values[criterion.id] ?? null);
              return (
                <li key={criterion.id}>
                  <span className="rating-name">{criterionName(criterion)}</span>
                  <HalfStarRating
                    label={criterionName(criterion)}
                    value={value}
                    readOnly={!canRate}
                    onChange={(next) => {
                      setValues((current) => ({ ...current, [criterion.id]: next }));
                      setError(null);
                    }}
                  />
                  <span className="tabular rating-value">
                    {value ? value.toFixed(limits.ratingDecimals) : '–'}
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {error && (
        <small className="p-error" role="alert">
          {error}
        </small>
      )}
    </Dialog>
  );
}
