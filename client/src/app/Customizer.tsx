import { useAtom, useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { InputSwitch } from 'primereact/inputswitch';
import { SelectButton } from 'primereact/selectbutton';
import { Sidebar } from 'primereact/sidebar';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  colorPresets,
  customizerOpenAtom,
  defaultSettings,
  footerTypes,
  headerTypes,
  layoutTypes,
  navStyles,
  routeTransitions,
  settingsAtom,
  themeModes,
  themeStyles,
} from '../state/settings.ts';

/** PrimeReact gives the wrapper role=checkbox around the input's role=switch (nested-interactive): the input alone is the control. */
const switchPt = { root: { role: undefined, 'aria-checked': undefined } };

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="customizer-section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/**
 * The settings drawer: style, mode, colours, direction, navigation, layout, footer, header, transition.
 * Loaded the first time it opens (see App).
 */
export default function Customizer() {
  const { t } = useTranslation();
  const [open, setOpen] = useAtom(customizerOpenAtom);
  const [settings, setSettings] = useAtom(settingsAtom);
  const rtl = useAtomValue(settingsAtom).rtl;
  const options = <T extends string>(values: readonly T[], prefix: string) =>
    values.map((value) => ({
      value,
      label: t(`customizer.${prefix}.${value}` as never) as string,
    }));

  return (
    <Sidebar
      visible={open}
      onHide={() => setOpen(false)}
      position={rtl ? 'left' : 'right'}
      className="customizer"
      // Modal (its mask covers the page): announced as a dialog named by its title.
      role="dialog"
      aria-modal="true"
      aria-labelledby="customizer-title"
      header={
        <h2 id="customizer-title" className="customizer-title">
          {t('customizer.title')}
        </h2>
      }
      ariaCloseLabel={t('common.close')}
    >
      <Section title={t('customizer.style')}>
        <SelectButton
          value={settings.style}
          options={options(themeStyles, 'styles')}
          onChange={(e) => e.value && setSettings({ style: e.value })}
          allowEmpty={false}
        />
      </Section>
      <Section title={t('customizer.mode')}>
        <SelectButton
          className="wrap"
          value={settings.mode}
          options={options(themeModes, 'modes')}
          onChange={(e) => e.value && setSettings({ mode: e.value })}
          allowEmpty={false}
        />
      </Section>
      <Section title={t('customizer.colors')}>
        <div className="color-presets" role="radiogroup" aria-label={t('customizer.colors')}>
          {colorPresets.map((preset) => (
            // biome-ignore lint/a11y/useSemanticElements: a colour swatch in a radio group; a native radio cannot show it
            <button
              key={preset.id}
              type="button"
              role="radio"
              aria-checked={settings.preset === preset.id}
              aria-label={t(`customizer.presets.${preset.id}`)}
              title={t(`customizer.presets.${preset.id}`)}
              className="color-preset"
              style={{
                background: `linear-gradient(135deg, ${preset.primary} 50%, ${preset.secondary} 50%)`,
              }}
              onClick={() => setSettings({ preset: preset.id })}
            >
              {settings.preset === preset.id && <i className="pi pi-check" aria-hidden="true" />}
            </button>
          ))}
        </div>
        <label className="customizer-row">
          <span>{t('customizer.customColor')}</span>
          <input
            type="color"
            value={settings.customColor}
            aria-label={t('customizer.customColor')}
            onChange={(event) => setSettings({ preset: 'custom', customColor: event.target.value })}
          />
        </label>
      </Section>
      <Section title={t('customizer.direction')}>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: PrimeReact's InputSwitch renders its input inside the label */}
        <label className="customizer-row">
          <span>{t('customizer.rtl')}</span>
          <InputSwitch
            checked={settings.rtl}
            onChange={(e) => setSettings({ rtl: Boolean(e.value) })}
            aria-label={t('customizer.rtl')}
            pt={switchPt}
          />
        </label>
      </Section>
      <Section title={t('customizer.navigation')}>
        <div className="nav-styles" role="radiogroup" aria-label={t('customizer.navigation')}>
          {navStyles.map((style) => (
            // biome-ignore lint/a11y/useSemanticElements: a tile with a drawing of the layout in a radio group; a native radio cannot show it
            <button
              key={style}
              type="button"
              role="radio"
              aria-checked={settings.navStyle === style}
              className="nav-style"
              onClick={() => setSettings({ navStyle: style, navCollapsed: false })}
            >
              <span className={`nav-preview nav-preview-${style}`} aria-hidden="true">
                <span className="nav-preview-side" />
                <span className="nav-preview-extra" />
                <span className="nav-preview-top" />
                <span className="nav-preview-body" />
              </span>
              <span className="nav-style-name">{t(`customizer.navStyles.${style}`)}</span>
            </button>
          ))}
        </div>
      </Section>
      <Section title={t('customizer.layout')}>
        <SelectButton
          value={settings.layout}
          options={options(layoutTypes, 'layouts')}
          onChange={(e) => e.value && setSettings({ layout: e.value })}
          allowEmpty={false}
        />
      </Section>
      <Section title={t('customizer.footer')}>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: PrimeReact's InputSwitch renders its input inside the label */}
        <label className="customizer-row">
          <span>{t('customizer.showFooter')}</span>
          <InputSwitch
            checked={settings.footer}
            onChange={(e) => setSettings({ footer: Boolean(e.value) })}
            aria-label={t('customizer.showFooter')}
            pt={switchPt}
          />
        </label>
        <SelectButton
          value={settings.footerType}
          options={options(footerTypes, 'footerTypes')}
          onChange={(e) => e.value && setSettings({ footerType: e.value })}
          allowEmpty={false}
          disabled={!settings.footer}
        />
      </Section>
      <Section title={t('customizer.header')}>
        <SelectButton
          value={settings.header}
          options={options(headerTypes, 'headers')}
          onChange={(e) => e.value && setSettings({ header: e.value })}
          allowEmpty={false}
        />
      </Section>
      <Section title={t('customizer.transition')}>
        <SelectButton
          className="wrap"
          value={settings.transition}
          options={options(routeTransitions, 'transitions')}
          onChange={(e) => e.value && setSettings({ transition: e.value })}
          allowEmpty={false}
        />
      </Section>
      <Button
        type="button"
        outlined
        icon="pi pi-refresh"
        label={t('customizer.reset')}
        className="customizer-reset"
        onClick={() => setSettings({ ...defaultSettings, rtl: settings.rtl })}
      />
    </Sidebar>
  );
}
