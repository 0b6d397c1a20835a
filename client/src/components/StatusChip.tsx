import { useTranslation } from 'react-i18next';
import { statusColorByName } from '../../../domain/catalog.ts';
import type en from '../i18n/en.json';

type StatusKey = keyof typeof en.status;

/** 'Pending Delivery Confirmation' → 'pendingDeliveryConfirmation'. */
export const statusKey = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+(.)/g, (_match, next: string) => next.toUpperCase());

/** A status with its name in text and the specification's colour (never colour alone). */
export function StatusChip({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const key = statusKey(name);
  const label = i18n.exists(`status.${key}`) ? t(`status.${key as StatusKey}`) : name;
  const color = statusColorByName(name);
  return (
    <span
      className={`status-chip status-${color.name}`}
      style={{ '--chip-color': color.hex } as React.CSSProperties}
    >
      <span className="status-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
