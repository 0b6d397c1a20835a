import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import { FormActions } from '../../shared/forms/fields.tsx';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import {
  type CarrierChoice,
  type CarrierPreferencesAnswer,
  fetchCarrierLists,
  saveCarrierLists,
} from './carrierLists.api.ts';

type List = keyof CarrierPreferencesAnswer;
const LISTS: List[] = ['preferred', 'blocked'];

/**
 * A shipper's preferred and blocked carriers (the Carriers tab of Account Settings): every Active
 * carrier can be ticked on one list, never both. Preferred carriers see its preferred-only loads
 * first; blocked carriers never see its loads. Saved as a whole with `PUT /api/carriers/preferences`.
 */
export function CarrierListsTab({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<CarrierChoice[] | null>(null);
  const [lists, setLists] = useState<CarrierPreferencesAnswer>({ preferred: [], blocked: [] });
  const [failed, setFailed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchCarrierLists(controller.signal)
      .then(([current, carriers]) => {
        setLists(current);
        setChoices(carriers);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, []);

  const toggle = (list: List, id: string, on: boolean) => {
    setError(null);
    setLists((current) => ({
      ...current,
      [list]: on ? [...current[list], id] : current[list].filter((other) => other !== id),
    }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (lists.preferred.some((id) => lists.blocked.includes(id))) {
      setError(t('carrierLists.bothLists'));
      return;
    }
    setBusy(true);
    fetchStart();
    try {
      setLists(await saveCarrierLists(lists));
      setError(null);
      fetchSuccess(t('carrierLists.saved'));
    } catch (caught) {
      const named = caught instanceof ApiError ? caught.errors.find((item) => item.path) : null;
      setError(named?.message ?? messageOf(caught));
      fetchError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  if (failed) return <p role="alert">{t('carrierLists.failed')}</p>;
  if (!choices) return <p aria-busy="true">…</p>;
  // A carrier on a list that is no longer a choice (no longer Active) keeps its place, by id.
  const named = new Map(choices.map((choice) => [choice.id, choice.name]));
  const everyone = [
    ...choices,
    ...[...lists.preferred, ...lists.blocked]
      .filter((id) => !named.has(id))
      .map((id) => ({ id, name: id })),
  ];

  return (
    <form className="account-form carrier-lists-form" onSubmit={submit} noValidate>
      <p className="form-hint">{t('carrierLists.intro')}</p>
      {everyone.length === 0 && <p>{t('carrierLists.none')}</p>}
      {LISTS.map((list) => (
        <fieldset key={list} className="carrier-list" aria-label={t(`carrierLists.${list}`)}>
          <legend>{t(`carrierLists.${list}`)}</legend>
          {everyone.map((carrier) => {
            const inputId = `carrier-${list}-${carrier.id}`;
            const other: List = list === 'preferred' ? 'blocked' : 'preferred';
            return (
              <div className="form-check" key={carrier.id}>
                <input
                  type="checkbox"
                  id={inputId}
                  checked={lists[list].includes(carrier.id)}
                  disabled={lists[other].includes(carrier.id)}
                  onChange={(event) => toggle(list, carrier.id, event.target.checked)}
                />
                <label htmlFor={inputId}>{carrier.name}</label>
              </div>
            );
          })}
        </fieldset>
      ))}
      {error && (
        <small className="p-error" role="alert">
          {error}
        </small>
      )}
      <FormActions
        onCancel={onCancel}
        busy={busy}
        cancelLabel={t('common.cancel')}
        saveLabel={t('common.saveChanges')}
      />
    </form>
  );
}
