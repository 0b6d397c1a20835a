import { useSetAtom } from 'jotai';
import { Button } from 'primereact/button';
import { useTranslation } from 'react-i18next';
import { customizerOpenAtom } from '../state/settings.ts';

/** The header button that opens the customizer drawer. */
export function CustomizerButton() {
  const { t } = useTranslation();
  const setOpen = useSetAtom(customizerOpenAtom);
  return (
    <Button
      type="button"
      icon="pi pi-palette"
      rounded
      text
      className="topbar-icon-button"
      aria-label={t('customizer.open')}
      onClick={() => setOpen(true)}
    />
  );
}
