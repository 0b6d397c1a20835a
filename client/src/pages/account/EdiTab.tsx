import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { RadioButton } from 'primereact/radiobutton';
import { Tag } from 'primereact/tag';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import { TextField } from '../../shared/forms/fields.tsx';
import { notify } from '../../state/common.ts';
import {
  createEdiPartner,
  type EdiDocumentRow,
  type EdiError,
  type EdiPartner,
  type EdiPartnerCreated,
  ediDocumentText,
  listEdiDocuments,
  listEdiPartners,
  resendEdiDocument,
} from './edi.api.ts';
import './edi.css';

const PAGE_SIZE = 20;

/** X12 text one segment a line: after each segment terminator (ISA's 106th character). */
const readable = (text: string) => {
  const terminator = text.startsWith('ISA') && text.length > 105 ? text[105]! : '~';
  return text
    .split(terminator)
    .map((segment) => segment.trim())
    .filter(Boolean)
    .map((segment) => `${segment}${terminator}`)
    .join('\n');
};

type StatusKey =
  | 'accepted'
  | 'rejected'
  | 'queued'
  | 'retrying'
  | 'delivered'
  | 'failed'
  | 'waiting'
  | 'fetched';
const SEVERITY: Record<StatusKey, 'success' | 'danger' | 'warning' | 'info' | 'secondary'> = {
  accepted: 'success',
  delivered: 'success',
  fetched: 'success',
  rejected: 'danger',
  failed: 'danger',
  retrying: 'warning',
  queued: 'info',
  waiting: 'info',
};
const isStatus = (status: string): status is StatusKey => status in SEVERITY;

/** The codes a 990 (B104) or a 214 (AT701) we sent carries, said in words. */
const CODES = ['A', 'D', 'X3', 'AF', 'X1', 'D1'] as const;
type Code = (typeof CODES)[number];
const isCode = (code: string | null): code is Code => CODES.includes(code as Code);

/** An error of a document in words: where (segment, position, element) and why. */
function ErrorText({ error }: { error: EdiError }) {
  const { t } = useTranslation();
  const where =
    error.element !== null
      ? t('edi.errorElement', {
          segment: error.segment,
          element: String(error.element).padStart(2, '0'),
        })
      : t('edi.errorSegment', { segment: error.segment });
  const position =
    error.position !== null ? ` ${t('edi.errorPosition', { position: error.position })}` : '';
  return (
    <li>
      <strong>
        {where}
        {position}
      </strong>
      {': '}
      {error.reason}
    </li>
  );
}

/** The add-partner form: ids, and where our answers go (an HTTPS endpoint or the mailbox). */
function PartnerForm({ onAdded }: { onAdded: (created: EdiPartnerCreated) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [isaQualifier, setIsaQualifier] = useState('ZZ');
  const [isaId, setIsaId] = useState('');
  const [gsId, setGsId] = useState('');
  const [target, setTarget] = useState<'mailbox' | 'url'>('mailbox');
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string> = {
      ...(name.trim() ? {} : { name: t('edi.required') }),
      ...(isaId.trim() ? {} : { isaId: t('edi.required') }),
      ...(gsId.trim() ? {} : { gsId: t('edi.required') }),
      ...(target === 'url' && !url.trim() ? { url: t('edi.required') } : {}),
    };
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const created = await createEdiPartner({
        name: name.trim(),
        isaQualifier: isaQualifier.trim(),
        isaId: isaId.trim(),
        gsId: gsId.trim(),
        deliver: target === 'url' ? { url: url.trim() } : { mailbox: true },
      });
      setName('');
      setIsaId('');
      setGsId('');
      setUrl('');
      onAdded(created);
    } catch (error) {
      if (error instanceof ApiError && error.errors.length) {
        const byField: Record<string, string> = {};
        for (const fieldError of error.errors) {
          const field = (fieldError.path ?? '').startsWith('deliver')
            ? 'url'
            : (fieldError.path ?? '').split('.')[0]!;
          byField[field] ??= fieldError.message;
        }
        setErrors(byField);
      } else notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="account-form edi-card"
      aria-labelledby="edi-add-title"
    >
      <h3 id="edi-add-title" className="m-0">
        {t('edi.add')}
      </h3>
      <TextField
        id="edi-name"
        label={t('edi.name')}
        value={name}
        onChange={setName}
        error={errors.name}
        required
      />
      <div className="edi-ids">
        <TextField
          id="edi-isa-qualifier"
          label={t('edi.isaQualifier')}
          value={isaQualifier}
          onChange={setIsaQualifier}
          error={errors.isaQualifier}
          required
        />
        <TextField
          id="edi-isa-id"
          label={t('edi.isaId')}
          value={isaId}
          onChange={setIsaId}
          error={errors.isaId}
          required
        />
        <TextField
          id="edi-gs-id"
          label={t('edi.gsId')}
          value={gsId}
          onChange={setGsId}
          error={errors.gsId}
          required
        />
      </div>
      <fieldset className="edi-deliver">
        <legend>{t('edi.deliver')}</legend>
        <div className="edi-choice">
          <RadioButton
            inputId="edi-deliver-mailbox"
            name="edi-deliver"
            value="mailbox"
            checked={target === 'mailbox'}
            onChange={() => setTarget('mailbox')}
          />
          <label htmlFor="edi-deliver-mailbox">{t('edi.mailbox')}</label>
        </div>
        <div className="edi-choice">
          <RadioButton
            inputId="edi-deliver-url"
            name="edi-deliver"
            value="url"
            checked={target === 'url'}
            onChange={() => setTarget('url')}
          />
          <label htmlFor="edi-deliver-url">{t('edi.endpoint')}</label>
        </div>
      </fieldset>
      {target === 'url' && (
        <TextField
          id="edi-url"
          label={t('edi.url')}
          value={url}
          onChange={setUrl}
          error={errors.url}
          hint={t('edi.urlHint')}
          autoComplete="off"
          required
        />
      )}
      <div className="form-actions">
        <Button type="submit" label={t('edi.addButton')} icon="pi pi-plus" loading={busy} />
      </div>
    </form>
  );
}

/** The partner's key (and signing secret), shown once after adding it. */
function KeyDialog({ created, onClose }: { created: EdiPartnerCreated; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      header={t('edi.keyTitle')}
      visible
      onHide={onClose}
      modal
      style={{ width: '34rem', maxWidth: '95vw' }}
    >
      <p>{t('edi.keyOnce')}</p>
      <p className="edi-secret" data-testid="edi-api-key">
        {created.apiKey}
      </p>
      {created.signingSecret && (
        <>
          <p>{t('edi.signingSecret')}</p>
          <p className="edi-secret" data-testid="edi-signing-secret">
            {created.signingSecret}
          </p>
        </>
      )}
      <div className="form-actions">
        <Button type="button" label={t('edi.done')} onClick={onClose} />
      </div>
    </Dialog>
  );
}

function PartnerList({ partners }: { partners: EdiPartner[] }) {
  const { t } = useTranslation();
  if (partners.length === 0) return <p>{t('edi.noPartners')}</p>;
  return (
    <ul className="edi-partners" aria-label={t('edi.partners')}>
      {partners.map((partner) => (
        <li key={partner.id} className="edi-card">
          <strong>{partner.name}</strong>
          <span dir="ltr">
            ISA {partner.isaQualifier}/{partner.isaId} · GS {partner.gsId}
          </span>
          <span>
            {'url' in partner.deliver
              ? t('edi.deliversTo', { url: partner.deliver.url })
              : t('edi.mailbox')}
          </span>
        </li>
      ))}
    </ul>
  );
}

function DocumentTable({
  rows,
  onView,
  onResend,
}: {
  rows: EdiDocumentRow[];
  onView: (row: EdiDocumentRow) => void;
  onResend: (row: EdiDocumentRow) => void;
}) {
  const { t, i18n } = useTranslation();
  if (rows.length === 0) return <p>{t('edi.noDocuments')}</p>;
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <div className="edi-documents-scroll">
      <table className="edi-documents">
        <caption className="visually-hidden">{t('edi.documents')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('edi.columns.at')}</th>
            <th scope="col">{t('edi.columns.direction')}</th>
            <th scope="col">{t('edi.columns.type')}</th>
            <th scope="col">{t('edi.columns.load')}</th>
            <th scope="col">{t('edi.columns.partner')}</th>
            <th scope="col">{t('edi.columns.control')}</th>
            <th scope="col">{t('edi.columns.status')}</th>
            <th scope="col">{t('edi.columns.errors')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('edi.columns.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{time.format(new Date(row.at))}</td>
              <td>{row.direction === 'in' ? t('edi.in') : t('edi.out')}</td>
              <td>
                <span dir="ltr">{row.type}</span>
                {row.code && (
                  <span className="edi-code">
                    {isCode(row.code) ? t(`edi.code.${row.code}`) : null}{' '}
                    <span dir="ltr">({row.code})</span>
                  </span>
                )}
              </td>
              <td dir="ltr" className="edi-nowrap">
                {row.loadGuid ?? ''}
              </td>
              <td>{row.partner}</td>
              <td dir="ltr">{row.controlNumber}</td>
              <td>
                <Tag
                  value={isStatus(row.status) ? t(`edi.status.${row.status}`) : row.status}
                  severity={isStatus(row.status) ? SEVERITY[row.status] : 'secondary'}
                />
              </td>
              <td>
                {row.errors.length > 0 ? (
                  <ul className="edi-errors">
                    {row.errors.map((error, index) => (
                      <ErrorText key={`${row.id}-${index}`} error={error} />
                    ))}
                  </ul>
                ) : row.lastError ? (
                  <span>{row.lastError}</span>
                ) : null}
              </td>
              <td className="edi-actions">
                <Button
                  type="button"
                  text
                  size="small"
                  label={t('edi.view')}
                  aria-label={t('edi.viewOf', { type: row.type, control: row.controlNumber })}
                  onClick={() => onView(row)}
                />
                {row.direction === 'out' && (
                  <Button
                    type="button"
                    text
                    size="small"
                    label={t('edi.resend')}
                    aria-label={t('edi.resendOf', { type: row.type, control: row.controlNumber })}
                    onClick={() => onResend(row)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Account settings, EDI: the shipper's trading partners and the X12 documents in and out (docs/api.md "EDI"). */
export function EdiTab() {
  const { t } = useTranslation();
  const [partners, setPartners] = useState<EdiPartner[] | null>(null);
  const [documents, setDocuments] = useState<EdiDocumentRow[] | null>(null);
  const [created, setCreated] = useState<EdiPartnerCreated | null>(null);
  const [raw, setRaw] = useState<{ title: string; text: string } | null>(null);
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((value) => value + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      listEdiPartners(controller.signal),
      listEdiDocuments(1, PAGE_SIZE, controller.signal),
    ])
      .then(([partnerList, page]) => {
        setPartners(partnerList);
        setDocuments(page.data);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) notify('error', messageOf(error));
      });
    return () => controller.abort();
  }, [version]);

  const view = (row: EdiDocumentRow) =>
    void ediDocumentText(row.id).then(
      (text) =>
        setRaw({
          title: t('edi.rawTitle', { type: row.type, control: row.controlNumber }),
          text: readable(text),
        }),
      (error: unknown) => notify('error', messageOf(error)),
    );
  const resend = (row: EdiDocumentRow) =>
    void resendEdiDocument(row.id).then(
      () => {
        notify('success', t('edi.resent'));
        refresh();
      },
      (error: unknown) => notify('error', messageOf(error)),
    );

  return (
    <div className="edi-tab">
      <p className="m-0">{t('edi.intro')}</p>
      <h3 className="m-0">{t('edi.partners')}</h3>
      {partners === null ? (
        <p role="status">{t('common.loading')}</p>
      ) : (
        <PartnerList partners={partners} />
      )}
      <PartnerForm
        onAdded={(value) => {
          setCreated(value);
          refresh();
        }}
      />
      <div className="edi-documents-head">
        <h3 className="m-0">{t('edi.documents')}</h3>
        <Button
          type="button"
          outlined
          size="small"
          icon="pi pi-refresh"
          label={t('edi.refresh')}
          aria-label={t('edi.refreshDocuments')}
          onClick={refresh}
        />
      </div>
      {documents === null ? (
        <p role="status">{t('common.loading')}</p>
      ) : (
        <DocumentTable rows={documents} onView={view} onResend={resend} />
      )}
      {created && <KeyDialog created={created} onClose={() => setCreated(null)} />}
      {raw && (
        <Dialog
          header={raw.title}
          visible
          onHide={() => setRaw(null)}
          modal
          style={{ width: '46rem', maxWidth: '95vw' }}
        >
          <pre className="edi-raw" dir="ltr" data-testid="edi-raw">
            {raw.text}
          </pre>
        </Dialog>
      )}
    </div>
  );
}
