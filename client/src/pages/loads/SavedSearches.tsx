import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import type { CarrierSearch } from './CarrierSearchForm.tsx';
import { useLoadMessageText } from './loadMessages.ts';
import { loadsApi, type SavedSearch } from './loads.api.ts';

interface Props {
  search: CarrierSearch;
  onApply: (saved: SavedSearch) => void;
  /** Opens the "save this search" dialog when it changes to a new number. */
  saveRequest: number;
}

/** The carrier's saved searches (lane alerts): apply one, delete one, save the current search. */
export function SavedSearches({ search, onApply, saveRequest }: Props) {
  const { t } = useTranslation();
  const messageText = useLoadMessageText();
  const [saved, setSaved] = useState<SavedSearch[] | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = () => loadsApi.searches().then(setSaved).catch(() => setSaved([]));
  useEffect(() => {
    void reload();
  }, []);
  useEffect(() => {
    if (saveRequest === 0) return;
    const suggestion = [search.originText, search.destinationText].filter(Boolean).join(' → ');
    setName(suggestion);
    setError(null);
    setNaming(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opened per request only
  }, [saveRequest]);

  const save = async () => {
    setBusy(true);
    try {
      const area = (point: CarrierSearch['origin'], radius: number) => (point ? { latitude: point.latitude, longitude: point.longitude, radius } : null);
      await loadsApi.saveSearch({
        name: name.trim(),
        origin: area(search.origin, search.originRadius),
        destination: area(search.destination, search.destinationRadius),
        equipment: search.equipment,
      });
      notify('success', t('marketplace.search.saved'));
      setNaming(false);
      await reload();
    } catch (failure) {
      setError(messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (entry: SavedSearch) => {
    try {
      await loadsApi.deleteSearch(entry.id);
      await reload();
    } catch (failure) {
      notify('error', messageText(messageOf(failure)));
    }
  };

  return (
    <aside className="card saved-searches" aria-labelledby="saved-searches-title">
      <h2 id="saved-searches-title"><i className="pi pi-bell" aria-hidden="true" /> {t('marketplace.search.savedTitle')}</h2>
      <p className="muted saved-searches-hint">{t('marketplace.search.savedHint')}</p>
      {saved === null ? null : saved.length === 0 ? (
        <p className="muted">{t('marketplace.search.noSaved')}</p>
      ) : (
        <ul className="saved-search-list">
          {saved.map((entry) => (
            <li key={entry.id}>
              <button type="button" className="saved-search-apply" onClick={() => onApply(entry)} title={t('marketplace.search.apply')}>
                <i className="pi pi-search" aria-hidden="true" /> {entry.name}
              </button>
              <Button type="button" icon="pi pi-trash" text rounded severity="danger" size="small" aria-label={t('marketplace.search.delete', { name: entry.name })} onClick={() => remove(entry)} />
            </li>
          ))}
        </ul>
      )}
      <Dialog
        header={t('marketplace.search.save')}
        visible={naming}
        onHide={() => setNaming(false)}
        style={{ width: 'min(28rem, 95vw)' }}
        footer={
          <div className="dialog-actions">
            <Button type="button" text severity="secondary" label={t('common.cancel')} onClick={() => setNaming(false)} />
            <Button type="button" icon="pi pi-bell" label={t('marketplace.search.saveConfirm')} loading={busy} onClick={save} />
          </div>
        }
      >
        <div className="form-field">
          <label htmlFor="saved-search-name">{t('marketplace.search.name')}</label>
          <InputText id="saved-search-name" value={name} onChange={(event) => { setName(event.target.value); setError(null); }} invalid={Boolean(error)} />
          {error && <small className="p-error">{error}</small>}
          <small className="field-hint">{t('marketplace.search.saveHint')}</small>
        </div>
      </Dialog>
    </aside>
  );
}
