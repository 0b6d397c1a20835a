import { Dropdown } from 'primereact/dropdown';
import { useTranslation } from 'react-i18next';
import { supportedLanguages } from '../i18n/index.ts';

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  // Each language is offered under its own name, whatever the current language is.
  const options = supportedLanguages.map((lng) => ({ value: lng, label: i18n.getFixedT(lng)('languageName') }));

  return (
    <div className="language-switcher">
      <label htmlFor="language-switcher" className="visually-hidden">
        {t('header.language')}
      </label>
      <Dropdown
        inputId="language-switcher"
        value={i18n.resolvedLanguage}
        options={options}
        onChange={(event) => void i18n.changeLanguage(event.value as string)}
        dropdownIcon="pi pi-globe"
      />
    </div>
  );
}
