import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { useTranslation } from 'react-i18next';
import type { Trust } from '../../../domain/loads/trust.ts';

const severityOf = { ready: 'info', flagged: 'warning', protected: 'success' } as const;
const iconOf = {
  ready: 'pi pi-check-circle',
  flagged: 'pi pi-exclamation-triangle',
  protected: 'pi pi-shield',
} as const;

/** A booking's trust as a tag: Ready, Flagged or Protected, in words and colour (never colour alone). */
export function TrustBadge({ trust }: { trust: Trust }) {
  const { t } = useTranslation();
  const reasons = trust.reasons.map((reason) => t(`trust.reasons.${reason.code}`)).join('\n');
  return (
    <Tag
      className={`trust-badge trust-${trust.state}`}
      severity={severityOf[trust.state]}
      icon={iconOf[trust.state]}
      value={t(`trust.state.${trust.state}`)}
      title={reasons || t(`trust.stateHelp.${trust.state}`)}
    />
  );
}

/** The trust of a load's booking with its reasons listed, for the load's details. */
export function TrustPanel({ trust }: { trust: Trust }) {
  const { t } = useTranslation();
  return (
    <section className="trust-panel" aria-label={t('trust.title')}>
      <div className="trust-panel-head">
        <strong>{t('trust.title')}</strong> <TrustBadge trust={trust} />
      </div>
      {trust.reasons.length > 0 ? (
        <Message
          severity="warn"
          className="trust-reasons"
          content={
            <div>
              <p className="trust-help">{t('trust.stateHelp.flagged')}</p>
              <ul className="trust-help">
                {trust.reasons.map((reason) => (
                  <li key={reason.code}>{t(`trust.reasons.${reason.code}`)}</li>
                ))}
              </ul>
            </div>
          }
        />
      ) : (
        <p className="muted trust-help">{t(`trust.stateHelp.${trust.state}`)}</p>
      )}
    </section>
  );
}
