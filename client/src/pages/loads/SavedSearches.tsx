import { Button } from 'primereact/button';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import type { CarrierSearch } from './CarrierSearchForm.tsx';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi, type SavedSearch } from '../../shared/loads/loads.api.ts';

/** Opened by 'save this search' only: the dialog's code loads then. */
const SaveSearchDialog = lazy(() => import('./SaveSearchDialog.tsx'));

interface Props {
  search: CarrierSearch;
  onApply: (saved: SavedSearch) => void;
  /** Opens the "save this search" dialog when it changes to a new number. */
  saveRequest: number;
}

/** The carrier's saved searches (lane alerts): apply one, delete one, save the current search. */
export function SavedSearches({ search, onApply, saveRequest }: Props) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [saved, setSaved] = useState<SavedSearch[] | null>(null);
  const [naming, setNaming] = useState(false);

  const reload = () =>
    loadsApi
      .searches()
      .then(setSaved)
      .catch(() => setSaved([]));
  useEffect(() => {
    void reload();
  }, []);
  useEffect(() => {
    if (saveRequest > 0) setNaming(true);
  }, [saveRequest]);

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
      <h2 id="saved-searches-title">
        <i className="pi pi-bell" aria-hidden="true" /> {t('marketplace.search.savedTitle')}
      </h2>
      <p className="muted saved-searches-hint">{t('marketplace.search.savedHint')}</p>
      {saved === null ? null : saved.length === 0 ? (
        <p className="muted">{t('marketplace.search.noSaved')}</p>
      ) : (
        <ul className="saved-search-list">
          {saved.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="saved-search-apply"
                onClick={() => onApply(entry)}
                title={t('marketplace.search.apply')}
              >
                <i className="pi pi-search" aria-hidden="true" /> {entry.name}
              </button>
              <Button
                type="button"
                icon="pi pi-trash"
                text
                rounded
                severity="danger"
                size="small"
                aria-label={t('marketplace.search.delete', { name: entry.name })}
                onClick={() => remove(entry)}
              />
            </li>
          ))}
        </ul>
      )}
      {naming && (
        <Suspense fallback={null}>
          <SaveSearchDialog
            key={saveRequest}
            search={search}
            onHide={() => setNaming(false)}
            onSaved={() => {
              setNaming(false);
              void reload();
            }}
          />
        </Suspense>
      )}
    </aside>
  );
}
