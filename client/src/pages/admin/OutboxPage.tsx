import { Button } from 'primereact/button';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Skeleton } from 'primereact/skeleton';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { apiGet, messageOf } from '../../api/http.ts';
import type { OutboxEntry } from '../../../../domain/contracts/registration.contract.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { useMessageText } from '../../components/messages.ts';
import '../../shared/styles/users.css';

export type { OutboxEntry };

/** The sign-up code (6 digits on a line of their own or after "code") of a kept e-mail, if it has one. */
export function signUpCodeOf(text: string): string | null {
  return (
    /\b(?:code|Code|CODE)\D{0,20}(\d{6})\b/.exec(text)?.[1] ??
    /^\s*(\d{6})\s*$/m.exec(text)?.[1] ??
    null
  );
}

/** The text with its app links ('/reset-password?code=…') clickable. */
function LinkedText({ text }: { text: string }) {
  const parts = text.split(/(\/(?:reset-password|confirm-signup)\?[^\s]+)/g);
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith('/reset-password?') || part.startsWith('/confirm-signup?') ? (
          <Link key={index} href={part}>
            {part}
          </Link>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** The Superadmin's view of the mail outbox: what would have been e-mailed while no SMTP server is configured. */
export default function OutboxPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  const [entries, setEntries] = useState<OutboxEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [copied, setCopied] = useState<string | null>(null);

  const load = useCallback(() => {
    setError(null);
    apiGet<OutboxEntry[]>('/admin/outbox')
      .then((list) => setEntries(Array.isArray(list) ? list : []))
      .catch((failure: unknown) => {
        setError(messageOf(failure));
        setEntries([]);
      });
  }, []);

  useEffect(load, [load]);

  const needle = search.trim().toLowerCase();
  const shown = (entries ?? []).filter(
    (entry) =>
      !needle || `${entry.to} ${entry.subject} ${entry.text}`.toLowerCase().includes(needle),
  );
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  const copy = (code: string) => {
    void navigator.clipboard?.writeText(code).then(
      () => setCopied(code),
      () => undefined,
    );
  };

  return (
    <section className="page outbox-page">
      <header className="page-header">
        <div>
          <h1>{t(titleKey)}</h1>
          <p className="page-subtitle">{t('outbox.subtitle')}</p>
        </div>
        <div className="outbox-tools">
          <IconField iconPosition="left">
            <InputIcon className="pi pi-search" />
            <InputText
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={t('outbox.search')}
              aria-label={t('outbox.search')}
            />
          </IconField>
          <Button
            type="button"
            icon="pi pi-refresh"
            label={t('outbox.refresh')}
            outlined
            onClick={load}
          />
        </div>
      </header>
      {error && <Message severity="error" text={messageText(error)} className="form-message" />}
      {entries === null && (
        <div className="outbox-list">
          {[1, 2, 3].map((key) => (
            <Skeleton key={key} height="7rem" />
          ))}
        </div>
      )}
      {entries !== null && shown.length === 0 && !error && (
        <div className="card coming-soon">
          <span className="coming-soon-icon" aria-hidden="true">
            <i className="pi pi-inbox" />
          </span>
          <h2>{needle ? t('outbox.noMatch') : t('outbox.empty')}</h2>
          <p>{t('outbox.emptyHint')}</p>
        </div>
      )}
      <ul className="outbox-list">
        {shown.map((entry) => {
          const code = signUpCodeOf(entry.text);
          return (
            <li key={entry.id} className="card outbox-entry">
              <header className="outbox-entry-header">
                <div className="cell-stack">
                  <strong>{entry.subject}</strong>
                  <small>{t('outbox.to', { to: entry.to })}</small>
                </div>
                <time dateTime={entry.at} className="tabular muted">
                  {format.format(new Date(entry.at))}
                </time>
              </header>
              {code && (
                <p className="outbox-code">
                  <span>{t('outbox.code')}</span>
                  <strong className="tabular" dir="ltr">
                    {code}
                  </strong>
                  <Button
                    type="button"
                    icon={copied === code ? 'pi pi-check' : 'pi pi-copy'}
                    text
                    rounded
                    size="small"
                    aria-label={t('outbox.copy')}
                    onClick={() => copy(code)}
                  />
                </p>
              )}
              <details>
                <summary>{t('outbox.message')}</summary>
                <pre className="outbox-text" dir="ltr">
                  <LinkedText text={entry.text} />
                </pre>
              </details>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
