import { Dropdown } from 'primereact/dropdown';
import { useTranslation } from 'react-i18next';
import { languageNames, supportedLanguages } from '../i18n/index.ts';

/** English, Chinese, Spanish, French, Italian, Arabic; each offered under its own name. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const options = supportedLanguages.map((lng) => ({
    value: lng,
    label: languageNames[lng],
    code: lng.toUpperCase(),
  }));

  return (
    <div className={`language-switcher${compact ? ' is-compact' : ''}`}>
      <label htmlFor="language-switcher" className="visually-hidden">
        {t('header.language')}
      </label>
      <Dropdown
        inputId="language-switcher"
        value={i18n.resolvedLanguage}
        options={options}
        onChange={(event) => void i18n.changeLanguage(event.value as string)}
        dropdownIcon="pi pi-globe"
        valueTemplate={(option: { label: string; code: string } | null) =>
          option ? <span>{compact ? option.code : option.label}</span> : null
        }
        panelClassName="language-panel"
      />
    </div>
  );
}
