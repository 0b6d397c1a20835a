import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable, type DataTablePageEvent, type DataTableSortEvent } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';
import type { PaginatorTemplateOptions } from 'primereact/paginator';
import { Tooltip } from 'primereact/tooltip';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits, pageSizes, DEFAULT_PAGE_SIZE } from '../../../../domain/catalog.ts';
import { messageOf } from '../../api/http.ts';
import {
  fetchTable,
  type TableAnswer,
  type TableQueryState,
  type TableRow,
} from '../../api/table.ts';
import { notify } from '../../state/common.ts';
import { FilterDropdown } from '../FilterDropdown.tsx';
import { StatusChip } from '../StatusChip.tsx';
import type { RowAction, TableColumn, TableFilter, TableHandle } from './tableTypes.ts';
import { visibleActions } from './rowActions.ts';

interface Props<Row extends TableRow> {
  title: string;
  url: string;
  columns: TableColumn<Row>[];
  filters?: TableFilter[];
  actions?: RowAction<Row>[];
  onRowClick?: (row: Row) => void;
  /** What to show when there are no rows ('No records to display' by default). */
  empty?: ReactNode;
  toolbar?: ReactNode;
  /** Change it to fetch again (after a change, or a realtime message). */
  refreshKey?: unknown;
  /** Filled with the table's handle: pushed rows go into the page in place. */
  handle?: RefObject<TableHandle<Row> | null>;
}

/** The generic data table over the table protocol: title, filters, debounced search, sorting, actions, pages. */
export function GenericTable<Row extends TableRow>({
  title,
  url,
  columns,
  filters = [],
  actions = [],
  onRowClick,
  empty,
  toolbar,
  refreshKey,
  handle,
}: Props<Row>) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState<TableQueryState>({
    page: 0,
    pageSize: DEFAULT_PAGE_SIZE,
    search: '',
    order: null,
    filters: {},
  });
  const [searchText, setSearchText] = useState('');
  const [answer, setAnswer] = useState<TableAnswer<Row> | null>(null);
  const [loading, setLoading] = useState(true);
  const queryRef = useRef(query);
  queryRef.current = query;
  const answerRef = useRef(answer);
  answerRef.current = answer;

  useEffect(() => {
    if (!handle) return;
    handle.current = {
      update: (change) =>
        setAnswer((current) => (current ? change(current, queryRef.current) : current)),
      rows: () => answerRef.current?.data ?? null,
    };
    return () => {
      handle.current = null;
    };
  }, [handle]);

  // The search waits 500 ms after the last key stroke.
  useEffect(() => {
    const timer = setTimeout(
      () =>
        setQuery((current) =>
          current.search === searchText ? current : { ...current, search: searchText, page: 0 },
        ),
      limits.searchDebounceMs,
    );
    return () => clearTimeout(timer);
  }, [searchText]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    fetchTable<Row>(url, query, controller.signal)
      .then((result) => setAnswer(result))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) notify('error', messageOf(error));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [url, query, refreshKey]);

  const rows = answer?.data ?? [];
  const total = answer?.total ?? 0;
  const sortField = query.order?.column;
  const sortOrder = query.order ? (query.order.direction === 'ASC' ? 1 : -1) : 0;

  const paginatorTemplate = {
    layout: 'RowsPerPageDropdown CurrentPageReport PrevPageLink NextPageLink',
    RowsPerPageDropdown: (
      options: PaginatorTemplateOptions & { value: number; onChange: (event: unknown) => void },
    ) => (
      <span className="table-rows-per-page">
        <label htmlFor={`${id}-rows`}>{t('table.rowsPerPage')}</label>
        <Dropdown
          inputId={`${id}-rows`}
          value={options.value}
          options={pageSizes.map((size) => ({ label: String(size), value: size }))}
          onChange={options.onChange}
        />
      </span>
    ),
    CurrentPageReport: (options: { first: number; last: number; totalRecords: number }) => (
      <span className="table-page-report tabular" aria-live="polite">
        {t('table.pageReport', {
          first: options.totalRecords === 0 ? 0 : options.first,
          last: options.last,
          total: options.totalRecords,
        })}
      </span>
    ),
  };

  return (
    <section className="generic-table card" aria-labelledby={`${id}-title`}>
      <header className="table-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="table-tools">
          {filters.map((filter) => (
            <FilterDropdown
              key={filter.name}
              id={`${id}-${filter.name}`}
              label={filter.label}
              allLabel={filter.allLabel}
              options={filter.options}
              value={(query.filters?.[filter.name] as number | string | undefined) ?? 0}
              onChange={(value) =>
                setQuery((current) => ({
                  ...current,
                  page: 0,
                  filters: { ...current.filters, [filter.name]: value },
                }))
              }
            />
          ))}
          <IconField iconPosition="left" className="table-search">
            <InputIcon className="pi pi-search" />
            <InputText
              type="search"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              placeholder={t('table.search')}
              aria-label={t('table.search')}
            />
          </IconField>
          {toolbar}
        </div>
      </header>
      <Tooltip target=".row-action" position="top" />
      <DataTable
        value={rows}
        lazy
        dataKey="id"
        paginator
        first={query.page * query.pageSize}
        rows={query.pageSize}
        totalRecords={total}
        rowsPerPageOptions={[...pageSizes]}
        paginatorTemplate={paginatorTemplate as never}
        onPage={(event: DataTablePageEvent) =>
          setQuery((current) => ({
            ...current,
            page: event.page ?? Math.floor(event.first / event.rows),
            pageSize: event.rows,
          }))
        }
        onSort={(event: DataTableSortEvent) =>
          setQuery((current) => ({
            ...current,
            page: 0,
            order:
              event.sortField && event.sortOrder
                ? { column: event.sortField, direction: event.sortOrder === 1 ? 'ASC' : 'DESC' }
                : null,
          }))
        }
        sortField={sortField}
        sortOrder={sortOrder as 1 | -1 | 0}
        removableSort
        loading={loading}
        emptyMessage={
          loading ? (
            <span className="table-loading">{t('table.loading')}</span>
          ) : (
            (empty ?? t('table.noRecords'))
          )
        }
        onRowClick={onRowClick ? (event) => onRowClick(event.data as Row) : undefined}
        rowClassName={() => (onRowClick ? 'is-clickable' : '')}
        scrollable
        size="small"
        stripedRows
      >
        {columns.map((column) => (
          <Column
            key={column.field}
            field={column.field}
            header={column.header}
            sortable={column.sortable}
            className={column.numeric ? 'tabular' : undefined}
            body={
              column.body ??
              (column.field === 'status'
                ? (row: Row) =>
                    row.statusName ? <StatusChip name={row.statusName} /> : String(row.status ?? '')
                : undefined)
            }
          />
        ))}
        {actions.length > 0 && (
          <Column
            header={t('table.actions')}
            className="table-actions-cell"
            body={(row: Row) => (
              <div className="table-actions">
                {visibleActions(actions, row).map((action) => (
                  <Button
                    key={action.id}
                    type="button"
                    icon={action.icon}
                    rounded
                    text
                    size="small"
                    severity={action.severity}
                    className="row-action"
                    aria-label={action.label}
                    data-pr-tooltip={action.label}
                    onClick={(event) => {
                      event.stopPropagation();
                      action.onClick(row);
                    }}
                  />
                ))}
              </div>
            )}
          />
        )}
      </DataTable>
    </section>
  );
}
