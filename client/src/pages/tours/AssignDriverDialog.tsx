import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { RadioButton } from 'primereact/radiobutton';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { type Assignee, toursApi } from '../../shared/tours/tours.api.ts';

interface Props {
  tourId: string;
  loadGuid: string;
  currentDriverId: string | null;
  onClose: () => void;
  onDone: () => void;
}

/** Picks one of the carrier's active drivers for a tour; drivers already on an open tour say so. */
export function AssignDriverDialog({ tourId, loadGuid, currentDriverId, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const [drivers, setDrivers] = useState<Assignee[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(currentDriverId);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [tractorNumber, setTractorNumber] = useState('');
  const [trailerNumber, setTrailerNumber] = useState('');

  useEffect(() => {
    let live = true;
    toursApi
      .assignees()
      .then((list) => live && setDrivers(list))
      .catch((failure: unknown) => {
        if (!live) return;
        setDrivers([]);
        setError(messageOf(failure));
      });
    return () => {
      live = false;
    };
  }, []);

  const submit = async () => {
    if (!chosen) {
      setError(t('tours.assign.chooseDriver'));
      return;
    }
    setSaving(true);
    try {
      const tractor = tractorNumber.trim();
      await toursApi.assign(
        tourId,
        chosen,
        tractor
          ? { tractorNumber: tractor, trailerNumber: trailerNumber.trim() || null }
          : undefined,
      );
      notify(
        'success',
        t('tours.assign.done', {
          name: drivers?.find((driver) => driver.id === chosen)?.name ?? '',
          load: loadGuid,
        }),
      );
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  const footer = (
    <div className="dialog-actions">
      <Button type="button" label={t('common.cancel')} text onClick={onClose} disabled={saving} />
      <Button
        type="button"
        label={t('tours.assign.submit')}
        icon="pi pi-user-plus"
        loading={saving}
        disabled={!drivers?.length}
        onClick={() => void submit()}
      />
    </div>
  );

  return (
    <Dialog
      header={t('tours.assign.title', { load: loadGuid })}
      visible
      onHide={onClose}
      footer={footer}
      className="tour-dialog"
      breakpoints={{ '640px': '95vw' }}
      style={{ width: '30rem' }}
    >
      {drivers === null ? (
        <ul className="driver-choices is-loading" aria-busy="true">
          {[0, 1, 2].map((index) => (
            <li key={index} className="skeleton-line" />
          ))}
        </ul>
      ) : drivers.length === 0 ? (
        <p className="muted">{t('tours.assign.noDrivers')}</p>
      ) : (
        <fieldset className="driver-choices">
          <legend className="visually-hidden">{t('tours.assign.chooseDriver')}</legend>
          {drivers.map((driver) => {
            const busy = driver.openTours.filter((tour) => tour.id !== tourId);
            return (
              // biome-ignore lint/a11y/noLabelWithoutControl: PrimeReact's RadioButton renders its input inside the label
              <label
                key={driver.id}
                className={`driver-choice${chosen === driver.id ? ' is-chosen' : ''}`}
              >
                <RadioButton
                  inputId={`driver-${driver.id}`}
                  name="driver"
                  value={driver.id}
                  checked={chosen === driver.id}
                  onChange={() => {
                    setChosen(driver.id);
                    setError(null);
                  }}
                />
                <span className="driver-choice-text">
                  <strong>{driver.name}</strong>
                  <span className="muted">
                    {[driver.phone, driver.email].filter(Boolean).join(' · ')}
                  </span>
                  {busy.length > 0 && (
                    <span className="driver-busy">
                      {t('tours.assign.busy', {
                        loads: busy.map((tour) => tour.loadGuid).join(', '),
                      })}
                    </span>
                  )}
                </span>
              </label>
            );
          })}
        </fieldset>
      )}
      {drivers !== null && drivers.length > 0 && (
        <div className="assign-truck">
          <div className="assign-truck-field">
            <label htmlFor="assign-tractor">{t('dock.assignTractor')}</label>
            <InputText
              id="assign-tractor"
              value={tractorNumber}
              maxLength={20}
              dir="ltr"
              autoComplete="off"
              aria-describedby="assign-truck-help"
              onChange={(event) => setTractorNumber(event.target.value)}
            />
          </div>
          <div className="assign-truck-field">
            <label htmlFor="assign-trailer">{t('dock.assignTrailer')}</label>
            <InputText
              id="assign-trailer"
              value={trailerNumber}
              maxLength={20}
              dir="ltr"
              autoComplete="off"
              onChange={(event) => setTrailerNumber(event.target.value)}
            />
          </div>
          <small id="assign-truck-help" className="muted">
            {t('dock.assignTruckHelp')}
          </small>
        </div>
      )}
      {error && (
        <small className="p-error" role="alert">
          {error}
        </small>
      )}
    </Dialog>
  );
}
