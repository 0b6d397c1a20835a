import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import type { CarrierSearch } from './CarrierSearchForm.tsx';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi } from '../../shared/loads/loads.api.ts';

interface Props {
  search: CarrierSearch;
  onHide: () => void;
  onSaved: () => void;
}

/** Names the current search, suggested from its origin and destination, and saves it as a lane alert. */
export default function SaveSearchDialog({ search, onHide, onSaved }: Props) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [name, setName] = useState(() =>
    [search.originText, search.destinationText].filter(Boolean).join(' → '),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    try {
      const area = (point: CarrierSearch['origin'], radius: number) =>
        point ? { latitude: point.latitude, longitude: point.longitude, radius } : null;
      await loadsApi.saveSearch({
        name: name.trim(),
        origin: area(search.origin, search.originRadius),
        destination: area(search.destination, search.destinationRadius),
        equipment: search.equipment,
      });
      notify('success', t('marketplace.search.saved'));
      onSaved();
    } catch (failure) {
      setError(messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      header={t('marketplace.search.save')}
      visible
      onHide={onHide}
      style={{ width: 'min(28rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.cancel')}
            onClick={onHide}
          />
          <Button
            type="button"
            icon="pi pi-bell"
            label={t('marketplace.search.saveConfirm')}
            loading={busy}
            onClick={save}
          />
        </div>
      }
    >
      <div className="form-field">
        <label htmlFor="saved-search-name">{t('marketplace.search.name')}</label>
        <InputText
          id="saved-search-name"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
          invalid={Boolean(error)}
        />
        {error && <small className="p-error">{error}</small>}
        <small className="field-hint">{t('marketplace.search.saveHint')}</small>
      </div>
    </Dialog>
  );
}
