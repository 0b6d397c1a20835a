import { Button } from 'primereact/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { cancelContactChange } from './organizationChange.api.ts';
import './organizationChange.css';

type Outcome = 'cancelled' | 'notFound';

/**
 * /organization-change/:token/cancel (public): the page behind the link mailed to an organization's
 * old contact e-mail when someone asks to change the contact's e-mail or phone. One button cancels
 * the change; the answer says it is cancelled, or that the link no longer names a pending change.
 */
export default function OrganizationChangeCancelPage({ params }: PageProps) {
  const { t } = useTranslation();
  const token = params.token ?? '';
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const cancel = async () => {
    setBusy(true);
    setFailed(null);
    try {
      await cancelContactChange(token);
      setOutcome('cancelled');
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400))
        setOutcome('notFound');
      else setFailed(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page page-contact-change">
      <div className="card">
        <h1>{t('contactHold.cancelPage.title')}</h1>
        {outcome === 'cancelled' ? (
          <p role="status" className="contact-change-done">
            <i className="pi pi-check-circle" aria-hidden="true" />{' '}
            {t('contactHold.cancelPage.cancelled')}
          </p>
        ) : outcome === 'notFound' ? (
          <p role="status">{t('contactHold.cancelPage.notFound')}</p>
        ) : (
          <>
            <p>{t('contactHold.cancelPage.intro')}</p>
            {failed && (
              <p role="alert" className="contact-change-error">
                {failed}
              </p>
            )}
            <Button
              type="button"
              label={t('contactHold.cancelPage.button')}
              icon="pi pi-times"
              severity="danger"
              loading={busy}
              disabled={busy}
              onClick={() => void cancel()}
            />
          </>
        )}
      </div>
    </section>
  );
}
