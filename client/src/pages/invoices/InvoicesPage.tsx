import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Tag } from 'primereact/tag';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGetBlob, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { formatDate, formatPrice } from '../../shared/format.ts';
import { openBlob } from '../../shared/loads/loads.api.ts';
import { sideOf } from '../../shared/tours/tourSteps.ts';
import { notify } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import {
  type Invoice,
  type InvoiceAction,
  type InvoiceRow,
  type InvoiceSide,
  type InvoiceStatus,
  invoiceActions,
  invoiceEvents,
  invoiceStatuses,
  invoicesApi,
} from './invoices.api.ts';
import './invoices.css';

const severityOf: Record<InvoiceStatus, 'success' | 'info' | 'warning' | 'danger' | undefined> = {
  draft: undefined,
  submitted: 'info',
  approved: 'info',
  disputed: 'warning',
  scheduled: 'info',
  paid: 'success',
  received: 'success',
  overdue: 'danger',
};

export function InvoiceStatusTag({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return <Tag value={t(`invoices.statuses.${status}`)} severity={severityOf[status]} />;
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * /invoices: a carrier's invoices to its shippers, a shipper's from its carriers (a Superadmin's:
 * all), with their status; an invoice opens with its lines, remit-to and PDF, and the steps the
 * viewer's side may take. Live: an invoice event over the socket reads the list again.
 */
export default function InvoicesPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const user = useAtomValue(authUserAtom);
  const tourSide = sideOf(user);
  const side: InvoiceSide =
    tourSide === 'carrier' ? 'carrier' : tourSide === 'shipper' ? 'shipper' : 'admin';
  const [rows, setRows] = useState<InvoiceRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [status, setStatus] = useState<InvoiceStatus | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  const read = useCallback(async () => {
    try {
      setRows((await invoicesApi.list(status)).data);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [status]);

  useEffect(() => {
    void read();
  }, [read]);

  useRealtime(invoiceEvents, (_event, payload) => {
    void read();
    if (payload.invoiceId === openId) setVersion((value) => value + 1);
  });
  useOnReconnect(() => void read());

  const intro =
    side === 'carrier'
      ? t('invoices.receivables')
      : side === 'shipper'
        ? t('invoices.payables')
        : t('invoices.all');

  return (
    <section className="page invoices-page" aria-labelledby="invoices-title">
      <h1 id="invoices-title">{t(titleKey)}</h1>
      <p className="muted">{intro}</p>
      <div className="invoices-filter">
        <label htmlFor="invoices-status">{t('invoices.filter')}</label>{' '}
        <Dropdown
          inputId="invoices-status"
          value={status}
          onChange={(event) => setStatus((event.value as InvoiceStatus | null) ?? null)}
          options={[
            { value: null, label: t('invoices.anyStatus') },
            ...invoiceStatuses.map((value) => ({
              value,
              label: t(`invoices.statuses.${value}`),
            })),
          ]}
        />
      </div>
      {failed ? (
        <div role="alert">
          <p>{t('invoices.failed')}</p>
          <Button type="button" label={t('invoices.retry')} onClick={() => void read()} />
        </div>
      ) : rows === null ? (
        <p aria-busy="true" className="muted">
          …
        </p>
      ) : rows.length === 0 ? (
        <p className="muted">{t('invoices.empty')}</p>
      ) : (
        <DataTable value={rows} dataKey="id" size="small" stripedRows>
          <Column
            header={t('invoices.columns.number')}
            body={(row: InvoiceRow) => (
              <Button
                type="button"
                link
                label={row.number}
                aria-label={t('invoices.open', { number: row.number })}
                onClick={() => setOpenId(row.id)}
              />
            )}
          />
          <Column header={t('invoices.columns.load')} field="loadGuid" />
          {side !== 'carrier' && <Column header={t('invoices.columns.carrier')} field="carrier" />}
          {side !== 'shipper' && <Column header={t('invoices.columns.shipper')} field="shipper" />}
          <Column
            header={t('invoices.columns.status')}
            body={(row: InvoiceRow) => <InvoiceStatusTag status={row.status} />}
          />
          <Column
            header={t('invoices.columns.total')}
            body={(row: InvoiceRow) => formatPrice(row.total, lng)}
          />
          <Column
            header={t('invoices.columns.dueAt')}
            body={(row: InvoiceRow) => formatDate(row.dueAt, lng)}
          />
          <Column
            header={t('invoices.columns.paidAt')}
            body={(row: InvoiceRow) => formatDate(row.paidAt, lng)}
          />
        </DataTable>
      )}
      {openId && (
        <InvoiceDialog
          key={`${openId}-${version}`}
          invoiceId={openId}
          side={side}
          onClose={() => setOpenId(null)}
          onChanged={() => void read()}
        />
      )}
    </section>
  );
}

type Asking = Exclude<InvoiceAction, 'approve' | 'received' | 'notReceived'> | null;

/** One invoice: its lines, remit-to, terms, PDF, and the steps of the viewer's side. */
export function InvoiceDialog({
  invoiceId,
  side,
  onClose,
  onChanged,
}: {
  invoiceId: string;
  side: InvoiceSide;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const [invoice, setInvoice] = useState<Invoice | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState('');
  const [extra, setExtra] = useState('');
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    invoicesApi
      .get(invoiceId)
      .then(setInvoice)
      .catch((failure: unknown) => notify('error', messageOf(failure)));
  }, [invoiceId]);

  const run = async (action: InvoiceAction, call: () => Promise<Invoice>) => {
    setBusy(true);
    setError(null);
    try {
      setInvoice(await call());
      notify('success', t(`invoices.done.${action}`));
      setAsking(null);
      setText('');
      setExtra('');
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const ask = (action: Exclude<Asking, null>) => {
    setAsking(action);
    setError(null);
    setText(action === 'schedule' ? today() : '');
    setExtra(action === 'pay' ? today() : '');
  };

  const send = () => {
    if (!invoice || !asking) return;
    if (asking === 'submit')
      return run('submit', () => invoicesApi.submit(invoice.id, text.trim()));
    if (asking === 'dispute') {
      const lines = [...picked]
        .sort((a, b) => a - b)
        .map((index) => ({ index, reason: (reasons[index] ?? '').trim() }));
      if (lines.length === 0 || lines.some((line) => !line.reason))
        return setError(t('invoices.form.pickLine'));
      return run('dispute', () => invoicesApi.dispute(invoice.id, lines));
    }
    if (!text.trim()) return setError(t('invoices.form.required'));
    if (asking === 'answer') return run('answer', () => invoicesApi.answer(invoice.id, text));
    if (asking === 'schedule') return run('schedule', () => invoicesApi.schedule(invoice.id, text));
    if (!extra.trim()) return setError(t('invoices.form.required'));
    return run('pay', () => invoicesApi.pay(invoice.id, text, extra));
  };

  const openPdf = async (fileId: string) => {
    try {
      openBlob(await apiGetBlob(`/files/${encodeURIComponent(fileId)}`));
    } catch (failure) {
      notify('error', messageOf(failure));
    }
  };

  const actions = invoice ? invoiceActions(side, invoice.stage) : [];
  const footer = (
    <div className="dialog-actions">
      <Button type="button" text label={t('invoices.detail.close')} onClick={onClose} />
      {!asking &&
        actions.map((action) => (
          <Button
            key={action}
            type="button"
            label={t(`invoices.actions.${action}`)}
            loading={busy}
            severity={action === 'dispute' || action === 'notReceived' ? 'warning' : undefined}
            onClick={() => {
              if (!invoice) return;
              if (action === 'approve') void run('approve', () => invoicesApi.approve(invoice.id));
              else if (action === 'received')
                void run('received', () => invoicesApi.receipt(invoice.id, true));
              else if (action === 'notReceived')
                void run('notReceived', () => invoicesApi.receipt(invoice.id, false));
              else ask(action);
            }}
          />
        ))}
    </div>
  );

  return (
    <Dialog
      header={invoice ? t('invoices.detail.title', { number: invoice.number }) : '…'}
      visible
      onHide={onClose}
      footer={footer}
      breakpoints={{ '640px': '95vw' }}
      style={{ width: '40rem' }}
    >
      {invoice && (
        <div className="invoice-detail">
          <p>
            <InvoiceStatusTag status={invoice.status} />{' '}
            {t('invoices.detail.load', { load: invoice.loadGuid })} ·{' '}
            {t('invoices.detail.terms', { days: invoice.termsDays })}
          </p>
          <p className="muted">
            {t('invoices.columns.carrier')}: {invoice.carrier} · {t('invoices.columns.shipper')}:{' '}
            {invoice.shipper}
          </p>
          <h3>{t('invoices.detail.lines')}</h3>
          <table className="invoice-lines">
            <thead>
              <tr>
                {asking === 'dispute' && <th scope="col">{t('invoices.form.disputeLine')}</th>}
                <th scope="col">{t('invoices.detail.line')}</th>
                <th scope="col">{t('invoices.detail.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {invoice.lines.map((line, index) => (
                <tr key={`${line.kind}-${line.claimId ?? index}`}>
                  {asking === 'dispute' && (
                    <td>
                      <Checkbox
                        inputId={`${id}-pick-${index}`}
                        checked={picked.has(index)}
                        aria-label={`${t('invoices.form.disputeLine')}: ${line.description}`}
                        onChange={(event) =>
                          setPicked((current) => {
                            const next = new Set(current);
                            if (event.checked) next.add(index);
                            else next.delete(index);
                            return next;
                          })
                        }
                      />
                      {picked.has(index) && (
                        <InputText
                          aria-label={t('invoices.form.reason')}
                          placeholder={t('invoices.form.reason')}
                          value={reasons[index] ?? ''}
                          onChange={(event) =>
                            setReasons((current) => ({ ...current, [index]: event.target.value }))
                          }
                        />
                      )}
                    </td>
                  )}
                  <td>
                    {t(`invoices.kinds.${line.kind}`)}
                    {line.kind !== 'linehaul' ? ` · ${line.description}` : ''}
                    {line.status === 'disputed' && line.reason && (
                      <div className="invoice-line-dispute">
                        {t('invoices.detail.disputed', { reason: line.reason })}
                      </div>
                    )}
                  </td>
                  <td>{formatPrice(line.amount, lng)}</td>
                </tr>
              ))}
              <tr>
                {asking === 'dispute' && <td />}
                <th scope="row">{t('invoices.detail.total')}</th>
                <td>
                  <strong>{formatPrice(invoice.total, lng)}</strong>
                </td>
              </tr>
            </tbody>
          </table>
          <h3>{t('invoices.detail.remitTo')}</h3>
          <p>
            <strong>{invoice.remitTo.name}</strong>
            <br />
            {invoice.remitTo.address}
          </p>
          {invoice.remitTo.factor && <p role="note">{t('invoices.detail.factor')}</p>}
          {invoice.reference && (
            <p>
              {t('invoices.detail.reference')}: {invoice.reference}
            </p>
          )}
          {invoice.answer && (
            <p>
              {t('invoices.detail.answer')}: {invoice.answer}
            </p>
          )}
          {invoice.scheduledFor && invoice.stage === 'scheduled' && (
            <p>{t('invoices.detail.scheduledFor', { date: invoice.scheduledFor })}</p>
          )}
          {invoice.paidAt && (
            <p>
              {t('invoices.detail.payment', {
                date: formatDate(invoice.paidAt, lng),
                reference: invoice.paymentReference ?? '',
              })}
            </p>
          )}
          {invoice.silenceApprovesAt && (
            <p className="muted">
              {t('invoices.detail.silence', { date: formatDate(invoice.silenceApprovesAt, lng) })}
            </p>
          )}
          {invoice.pdfFileId && (
            <Button
              type="button"
              icon="pi pi-file-pdf"
              outlined
              label={t('invoices.detail.pdf')}
              onClick={() => void openPdf(invoice.pdfFileId!)}
            />
          )}
          {asking && asking !== 'dispute' && (
            <div className="invoice-ask">
              <label htmlFor={`${id}-text`}>
                {asking === 'submit'
                  ? t('invoices.form.reference')
                  : asking === 'answer'
                    ? t('invoices.form.text')
                    : asking === 'schedule'
                      ? t('invoices.form.date')
                      : t('invoices.form.paymentReference')}
              </label>
              {asking === 'answer' ? (
                <InputTextarea
                  id={`${id}-text`}
                  value={text}
                  rows={3}
                  onChange={(event) => setText(event.target.value)}
                />
              ) : (
                <InputText
                  id={`${id}-text`}
                  type={asking === 'schedule' ? 'date' : 'text'}
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                />
              )}
              {asking === 'pay' && (
                <>
                  <label htmlFor={`${id}-paid`}>{t('invoices.form.paidAt')}</label>
                  <InputText
                    id={`${id}-paid`}
                    type="date"
                    value={extra}
                    onChange={(event) => setExtra(event.target.value)}
                  />
                </>
              )}
            </div>
          )}
          {asking && (
            <div className="dialog-actions">
              <Button
                type="button"
                text
                label={t('invoices.form.cancel')}
                onClick={() => setAsking(null)}
              />
              <Button
                type="button"
                label={asking === 'submit' ? t('invoices.actions.submit') : t('invoices.form.send')}
                loading={busy}
                onClick={() => void send()}
              />
            </div>
          )}
          {error && (
            <p role="alert" className="p-error">
              {error}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
