import { useTranslation } from 'react-i18next';
import { chipColors, type ChipColor } from '../../../../domain/catalog/colors.ts';
import type { ReadModelStatus } from './projections.api.ts';

const statusLook: Record<
  ReadModelStatus,
  { key: 'running' | 'catchingUp' | 'stalled' | 'rebuilding'; color: ChipColor }
> = {
  running: { key: 'running', color: chipColors.green },
  'catching-up': { key: 'catchingUp', color: chipColors.blue },
  stalled: { key: 'stalled', color: chipColors.red },
  rebuilding: { key: 'rebuilding', color: chipColors.amber },
};

/** The status of a read model or a reactor, as a coloured chip. */
export function ReadModelStatusChip({ status }: { status: ReadModelStatus }) {
  const { t } = useTranslation();
  const look = statusLook[status] ?? statusLook.stalled;
  return (
    <span
      className={`status-chip status-${look.color.name}`}
      style={{ '--chip-color': look.color.hex } as React.CSSProperties}
    >
      <span className="status-dot" aria-hidden="true" />
      {t(`readModels.status.${look.key}`)}
    </span>
  );
}
