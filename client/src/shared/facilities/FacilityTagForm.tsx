import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { type FacilityAnswer, facilitiesApi, facilityTags } from './facilities.api.ts';

/** A driver's tags for a facility it has left: parking, restrooms, entrance, staff, wait. */
export function FacilityTagForm({
  facilityId,
  onSent,
}: {
  facilityId: string;
  onSent?: (facility: FacilityAnswer) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const send = async () => {
    setBusy(true);
    try {
      const facility = await facilitiesApi.tag(facilityId, chosen);
      setSent(true);
      onSent?.(facility);
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="facility-tag-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <h3 id={`${id}-title`}>{t('facilities.tagForm')}</h3>
      <p className="field-hint">{t('facilities.tagHint')}</p>
      <div className="facility-tag-choices">
        {facilityTags.map((tag) => (
          <span key={tag} className="facility-tag-choice">
            <Checkbox
              inputId={`${id}-${tag}`}
              checked={chosen.includes(tag)}
              onChange={(event) =>
                setChosen((list) =>
                  event.checked ? [...list, tag] : list.filter((item) => item !== tag),
                )
              }
            />
            <label htmlFor={`${id}-${tag}`}>{t(`facilities.tags.${tag}`)}</label>
          </span>
        ))}
      </div>
      <Button
        type="submit"
        label={t('facilities.sendTags')}
        icon="pi pi-tag"
        disabled={chosen.length === 0 || busy}
        loading={busy}
      />
      {sent && (
        <p role="status" className="muted">
          {t('facilities.tagsSent')}
        </p>
      )}
    </form>
  );
}
