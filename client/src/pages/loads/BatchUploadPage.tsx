import Papa from 'papaparse';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { notify } from '../../state/common.ts';
import { useMessageText } from '../../components/messages.ts';
import { downloadBlob, loadsApi } from '../../shared/loads/loads.api.ts';
import '../../shared/styles/marketplace.css';

type CsvRow = Record<string, string> & { __line: string };

/** The columns worth seeing in the preview, when the file has them (the template's names). */
const PREVIEW_COLUMNS = [
  'refNumber',
  'pickupAddress',
  'pickupStart',
  'dropoffAddress',
  'dropoffStart',
  'equipment',
  'weight',
  'commodity',
];

interface RowError {
  row: number;
  field: string;
  message: string;
}

/**
 * Batch upload (`/loads/upload`): download the template, drop a CSV, preview its rows, import. The
 * server checks every row with the load form's rules and creates all or none; its row errors are
 * shown on the rows they belong to.
 */
export default function BatchUploadPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [, navigate] = useLocation();
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<CsvRow[]>([]);
  const [headers, setHeaders] = useState<string[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<RowError[]>([]);
  const [busy, setBusy] = useState(false);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setRows([]);
    setHeaders([]);
    setRowErrors([]);
    setFileError(null);
    if (!chosen) return;
    if (!/\.csv$/i.test(chosen.name) && chosen.type !== 'text/csv') {
      setFileError(t('messages.unsupportedFormat'));
      return;
    }
    Papa.parse<Record<string, string>>(chosen, {
      header: true,
      skipEmptyLines: 'greedy',
      complete: (result) => {
        // The file's line of each record (the header is line 1), as the server reports rows.
        setRows(result.data.map((row, index) => ({ ...row, __line: String(index + 2) })));
        setHeaders(result.meta.fields ?? []);
        if (result.data.length === 0) setFileError(t('marketplace.upload.noRows'));
      },
      error: () => setFileError(t('messages.somethingWentWrong')),
    });
  };

  const downloadTemplate = async () => {
    try {
      downloadBlob(await loadsApi.template(), 'loads-template.csv');
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    }
  };

  const importFile = async () => {
    if (!file) return;
    setBusy(true);
    setRowErrors([]);
    try {
      const { created } = await loadsApi.batchImport(file);
      notify('success', t('marketplace.upload.created', { count: created }));
      navigate('/loads/shipper');
    } catch (error) {
      if (error instanceof ApiError && error.errors.length > 0) {
        setRowErrors(
          error.errors.map((item) => ({
            row: item.row ?? 0,
            field: item.field ?? item.path ?? '',
            message: item.message,
          })),
        );
      }
      notify('error', messageText(messageOf(error)));
    } finally {
      setBusy(false);
    }
  };

  const errorsOf = (line: string) => rowErrors.filter((error) => String(error.row) === line);
  const fileErrors = rowErrors.filter(
    (error) => !rows.some((row) => row.__line === String(error.row)),
  );
  const columns = PREVIEW_COLUMNS.filter((column) => headers.includes(column));
  const shownColumns = columns.length > 0 ? columns : headers.slice(0, 8);
  const invalidRows = new Set(rowErrors.map((error) => String(error.row)));

  return (
    <section className="page batch-upload-page">
      <header className="page-header">
        <h1>{t(titleKey, { id: '' })}</h1>
        <Link href="/load" className="p-button p-component p-button-text">
          <i className="pi pi-pencil p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('marketplace.upload.useForm')}</span>
        </Link>
      </header>
      <div className="card upload-steps">
        <ol className="upload-howto">
          <li>
            <span>{t('marketplace.upload.step1')}</span>
            <Button
              type="button"
              outlined
              size="small"
              icon="pi pi-download"
              label={t('marketplace.upload.template')}
              onClick={downloadTemplate}
            />
          </li>
          <li>{t('marketplace.upload.step2')}</li>
          <li>{t('marketplace.upload.step3')}</li>
        </ol>
        <FileDropZone
          label={t('marketplace.upload.file')}
          accept=".csv,text/csv"
          file={file}
          onFile={choose}
          error={fileError}
          hint={t('marketplace.upload.hint')}
        />
      </div>
      {rows.length > 0 && (
        <div className="card upload-preview">
          <div className="table-header">
            <h2>{t('marketplace.upload.preview', { count: rows.length })}</h2>
            <div className="upload-summary tabular" aria-live="polite">
              {rowErrors.length > 0
                ? t('marketplace.upload.checked', { count: rows.length, invalid: invalidRows.size })
                : t('marketplace.upload.ready', { count: rows.length })}
            </div>
          </div>
          {busy && (
            <ProgressBar
              mode="indeterminate"
              style={{ height: '4px' }}
              aria-label={t('marketplace.upload.importing')}
            />
          )}
          {fileErrors.map((error, index) => (
            <Message
              key={index}
              severity="error"
              text={`${error.field ? `${error.field}: ` : ''}${messageText(error.message)}`}
              className="upload-file-error"
            />
          ))}
          {/* Keyed by the errors: PrimeReact re-renders a cell only when its row changes, so the Problems column would keep its old content. */}
          <DataTable
            key={rowErrors.map((error) => `${error.row}:${error.field}`).join('|')}
            value={rows}
            dataKey="__line"
            size="small"
            scrollable
            scrollHeight="28rem"
            pt={{
              wrapper: {
                tabIndex: 0,
                role: 'region',
                'aria-label': t('marketplace.upload.problems'),
              },
            }}
            rowClassName={(row: CsvRow) => (invalidRows.has(row.__line) ? 'row-invalid' : '')}
          >
            <Column field="__line" header={t('marketplace.upload.line')} className="tabular" />
            {shownColumns.map((column) => (
              <Column key={column} field={column} header={column} />
            ))}
            <Column
              header={t('marketplace.upload.problems')}
              body={(row: CsvRow) => {
                const found = errorsOf(row.__line);
                if (found.length === 0)
                  return rowErrors.length > 0 ? (
                    <i
                      className="pi pi-check-circle row-ok"
                      role="img"
                      aria-label={t('marketplace.upload.rowOk')}
                    />
                  ) : null;
                return (
                  <ul className="row-errors">
                    {found.map((error, index) => (
                      <li key={index}>
                        <strong>{error.field}</strong>: {messageText(error.message)}
                      </li>
                    ))}
                  </ul>
                );
              }}
            />
          </DataTable>
          <div className="form-actions">
            <Button
              type="button"
              text
              severity="secondary"
              label={t('common.cancel')}
              onClick={() => choose(null)}
              disabled={busy}
            />
            <Button
              type="button"
              icon="pi pi-cloud-upload"
              label={t('marketplace.upload.import', { count: rows.length })}
              loading={busy}
              onClick={importFile}
            />
          </div>
        </div>
      )}
    </section>
  );
}
