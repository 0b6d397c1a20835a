import { Button } from 'primereact/button';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { genericStatuses, TableAction } from '../../../../domain/catalog.ts';
import { apiPut, messageOf } from '../../api/http.ts';
import { activeFilters, fetchTable } from '../../api/table.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { MapPanel } from '../../components/map/index.ts';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { RowAction, TableHandle } from '../../components/table/tableTypes.ts';
import { notify } from '../../state/common.ts';
import {
  CarrierSearchForm,
  type CarrierSearch,
  emptySearch,
  searchFilters,
} from './CarrierSearchForm.tsx';
import { useFormats } from '../../shared/format.ts';
import type { MarketplaceRow, SavedSearch } from '../../shared/loads/loads.api.ts';
import { TermsCompact } from '../../shared/terms/TermsSummary.tsx';
import { BookNowBadge, BookNowButton } from '../../shared/loads/BookNow.tsx';
import { PayerFigure } from '../../shared/payers/PayerFigure.tsx';
import { useOnReconnect, useRealtime, useRealtimeStatus } from '../../realtime/useRealtime.ts';
import { applyOfferUpdate, applyPushedLoad, applyPushedLoadToPage } from './marketplaceRows.ts';
import { useMarketplaceColumns } from './marketplaceColumns.tsx';
import { marketplaceMarkers } from './marketplaceMarkers.ts';
import { SavedSearches } from './SavedSearches.tsx';
import '../../shared/styles/marketplace.css';

/** Opened by the 'view' row action only: its code loads then. */
const LoadViewDialog = lazy(() =>
  import('./LoadViewDialog.tsx').then((module) => ({ default: module.LoadViewDialog })),
);

const MAP_ROWS = 100;

/**
 * The carriers' marketplace (`/loads/carrier`): search by origin and destination radius,
 * equipment, pickup dates and weight; the results as a list and on a map; loads posted while the
 * screen is open appear at once; saved searches alert on new matching loads.
 */
export default function CarrierLoadsPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const format = useFormats();
  const [, navigate] = useLocation();
  const [search, setSearch] = useState<CarrierSearch>(emptySearch);
  const [refreshKey, setRefreshKey] = useState(0);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [mapRows, setMapRows] = useState<MarketplaceRow[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [viewing, setViewing] = useState<MarketplaceRow | null>(null);
  const [saveRequest, setSaveRequest] = useState(0);

  const filters = useMemo(() => activeFilters(searchFilters(search)), [search]);
  const url =
    filters.length > 0
      ? `/loads/carrier?filters=${encodeURIComponent(JSON.stringify(filters))}`
      : '/loads/carrier';

  useEffect(() => {
    const controller = new AbortController();
    fetchTable<MarketplaceRow>(url, { page: 0, pageSize: MAP_ROWS }, controller.signal)
      .then((answer) => setMapRows(answer.data))
      .catch(() => undefined);
    return () => controller.abort();
  }, [url, refreshKey]);

  const table = useRef<TableHandle<MarketplaceRow> | null>(null);
  const status = useRealtimeStatus();
  const markFresh = (id: string) => {
    setFresh((current) => new Set(current).add(id));
    setTimeout(
      () =>
        setFresh((current) => {
          const next = new Set(current);
          next.delete(id);
          return next;
        }),
      8_000,
    );
  };
  const offerStatusName = (id: number) =>
    genericStatuses.find((entry) => entry.id === id)?.name ?? String(id);

  // Pushed rows go into the table and the map where they are: a new match comes in, a changed
  // load is replaced, one that left the marketplace or no longer matches the search goes.
  useRealtime(['load:posted', 'load:updated'], (event, row) => {
    if (typeof row?.id !== 'string') return;
    setMapRows((rows) => applyPushedLoad(rows, row, search, { limit: MAP_ROWS }).rows);
    table.current?.update((answer, query) =>
      applyPushedLoadToPage(answer, row, search, query.search ?? ''),
    );
    if (event === 'load:posted') markFresh(row.id);
  });
  useRealtime(['proposal:updated'], (_, update) => {
    table.current?.update((answer) => ({
      ...answer,
      data: applyOfferUpdate(answer.data, update, offerStatusName),
    }));
    setMapRows((rows) => applyOfferUpdate(rows, update, offerStatusName));
  });
  useRealtime(['lane:alert'], (_, { load, searchName }) => {
    notify(
      'info',
      t('marketplace.search.laneAlert', {
        name: searchName ?? '',
        guid: load?.guid ?? '',
        from: format.place(load?.pickup),
        to: format.place(load?.dropoff),
      }),
    );
  });
  // After a reconnection the table and the map are read again: pushes may have been missed.
  useOnReconnect(() => setRefreshKey((key) => key + 1));

  const withdraw = async (row: MarketplaceRow) => {
    if (!row.myProposal) return;
    try {
      await apiPut(`/proposal/${row.myProposal.id}`, { status: 7, message: '' });
      notify('success', t('marketplace.offer.withdrawn'));
      setRefreshKey((key) => key + 1);
    } catch (error) {
      notify('error', messageOf(error));
    }
  };

  const columns = useMarketplaceColumns(fresh);

  const actions: RowAction<MarketplaceRow>[] = [
    {
      id: TableAction.View,
      icon: 'pi pi-eye',
      label: t('marketplace.actions.view'),
      onClick: setViewing,
    },
    {
      id: TableAction.MakeOffer,
      icon: 'pi pi-dollar',
      label: t('marketplace.actions.makeOffer'),
      severity: 'success',
      onClick: (row) => navigate(`/offer/load?id=${row.id}`),
    },
    {
      id: TableAction.Withdraw,
      icon: 'pi pi-undo',
      label: t('marketplace.actions.withdraw'),
      severity: 'danger',
      onClick: withdraw,
    },
  ];
  const markers = marketplaceMarkers(mapRows, selected, fresh, format);

  const apply = (saved: SavedSearch) =>
    setSearch({
      ...emptySearch(),
      originText: saved.origin ? t('marketplace.search.savedArea', { name: saved.name }) : '',
      origin: saved.origin ?? null,
      originRadius: saved.origin?.radius ?? 50,
      destinationText: saved.destination
        ? t('marketplace.search.savedArea', { name: saved.name })
        : '',
      destination: saved.destination ?? null,
      destinationRadius: saved.destination?.radius ?? 50,
      equipment: saved.equipment ?? [],
    });

  return (
    <section className="page carrier-loads-page">
      <header className="page-header">
        <h1>{t(titleKey, { id: '' })}</h1>
        <span
          className={`live-indicator${status === 'live' ? ' is-live' : ' is-offline'}`}
          role="status"
          title={t('marketplace.search.liveHint')}
        >
          <span className="live-dot" aria-hidden="true" />{' '}
          {status === 'live' ? t('marketplace.search.live') : t('marketplace.search.reconnecting')}
        </span>
      </header>
      <CarrierSearchForm
        search={search}
        onChange={setSearch}
        onClear={() => setSearch(emptySearch())}
        onSave={() => setSaveRequest((count) => count + 1)}
      />
      <div className="marketplace-layout">
        <div className="marketplace-results">
          <GenericTable<MarketplaceRow>
            title={t('marketplace.search.results')}
            url={url}
            columns={columns}
            actions={actions}
            onRowClick={(row) => setSelected(row.id)}
            refreshKey={refreshKey}
            handle={table}
            empty={
              <div className="empty-state">
                <i className="pi pi-search" aria-hidden="true" />
                <p>{t('marketplace.search.empty')}</p>
              </div>
            }
          />
        </div>
        <div className="marketplace-side">
          <MapPanel
            openable="marketplace"
            ariaLabel={t('marketplace.search.mapLabel', { count: mapRows.length })}
            markers={markers}
            height={380}
            maxFitZoom={8}
            onMarkerClick={(marker) => setSelected(marker.id.replace(/-[pd]$/, ''))}
          />
          {selected && (
            <div className="map-selection">
              {(() => {
                const row = mapRows.find((entry) => entry.id === selected);
                if (!row) return null;
                return (
                  <>
                    <strong className="tabular">{row.guid}</strong> {format.place(row.pickup)} →{' '}
                    {format.place(row.dropoff)}
                    <TermsCompact of={row} />
                    <PayerFigure payer={row.payer} />
                    <BookNowBadge load={row} />
                    <BookNowButton load={row} size="small" />
                    <Button
                      type="button"
                      size="small"
                      icon="pi pi-dollar"
                      label={t('marketplace.actions.makeOffer')}
                      onClick={() => navigate(`/offer/load?id=${row.id}`)}
                    />
                  </>
                );
              })()}
            </div>
          )}
          <SavedSearches search={search} onApply={apply} saveRequest={saveRequest} />
        </div>
      </div>
      {viewing && (
        <Suspense fallback={null}>
          <LoadViewDialog loadId={viewing.id} onHide={() => setViewing(null)} />
        </Suspense>
      )}
    </section>
  );
}
