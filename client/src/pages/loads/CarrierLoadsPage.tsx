import { Button } from 'primereact/button';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { genericStatuses, TableAction } from '../../../../domain/catalog.ts';
import { apiPut, messageOf } from '../../api/http.ts';
import { activeFilters, fetchTable } from '../../api/table.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { RowAction, TableColumn, TableHandle } from '../../components/table/tableTypes.ts';
import { notify } from '../../state/common.ts';
import {
  CarrierSearchForm,
  type CarrierSearch,
  emptySearch,
  searchFilters,
} from './CarrierSearchForm.tsx';
import { useFormats } from '../../shared/format.ts';
import type { MarketplaceRow, SavedSearch } from '../../shared/loads/loads.api.ts';
import { useOnReconnect, useRealtime, useRealtimeStatus } from '../../realtime/useRealtime.ts';
import { applyOfferUpdate, applyPushedLoad, applyPushedLoadToPage } from './marketplaceRows.ts';
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

  const columns: TableColumn<MarketplaceRow>[] = [
    {
      field: 'guid',
      header: t('marketplace.columns.reference'),
      sortable: true,
      body: (row) => (
        <span className="load-ref">
          <strong className="tabular">{row.guid}</strong>
          {fresh.has(row.id) && <span className="new-pill">{t('marketplace.search.new')}</span>}
        </span>
      ),
    },
    {
      field: 'pickupTime',
      header: t('marketplace.columns.pickup'),
      sortable: true,
      body: (row) => (
        <Place
          place={format.place(row.pickup)}
          time={format.time(row.pickupTime, row.pickup.timezone)}
          extra={
            row.originDistance != null
              ? t('marketplace.search.deadhead', { miles: format.miles(row.originDistance) })
              : null
          }
        />
      ),
    },
    {
      field: 'dropoffTime',
      header: t('marketplace.columns.dropoff'),
      sortable: true,
      body: (row) => (
        <Place
          place={format.place(row.dropoff)}
          time={format.time(row.dropoffTime, row.dropoff.timezone)}
          extra={null}
        />
      ),
    },
    {
      field: 'distance',
      header: t('marketplace.columns.distance'),
      sortable: true,
      numeric: true,
      body: (row) => format.miles(row.distance),
    },
    {
      field: 'equipment',
      header: t('marketplace.columns.equipment'),
      body: (row) => <span className="equipment-cell">{row.equipmentNames.join(', ')}</span>,
    },
    {
      field: 'weight',
      header: t('marketplace.columns.weight'),
      sortable: true,
      numeric: true,
      body: (row) => format.weight(row.weight),
    },
    { field: 'commodity', header: t('marketplace.form.commodity') },
    { field: 'shipper', header: t('marketplace.columns.shipper') },
    {
      field: 'myProposal',
      header: t('marketplace.columns.myOffer'),
      body: (row) =>
        row.myProposal ? (
          <span className="my-offer">
            <StatusChip name={row.myProposal.statusName} />
            <span className="tabular">
              {format.price(row.myProposal.counterPrice ?? row.myProposal.price)}
            </span>
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
  ];

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

  const markers: MapMarker[] = mapRows.flatMap((row) => [
    {
      id: `${row.id}-p`,
      kind: 'pickup' as const,
      latitude: row.pickup.latitude,
      longitude: row.pickup.longitude,
      label: selected === row.id ? row.guid : undefined,
      title: `${row.guid} ${format.place(row.pickup)}`,
      highlighted: selected === row.id || fresh.has(row.id),
    },
    ...(selected === row.id
      ? [
          {
            id: `${row.id}-d`,
            kind: 'dropoff' as const,
            latitude: row.dropoff.latitude,
            longitude: row.dropoff.longitude,
            title: `${row.guid} ${format.place(row.dropoff)}`,
            highlighted: true,
          },
        ]
      : []),
  ]);

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

function Place({ place, time, extra }: { place: string; time: string; extra: string | null }) {
  return (
    <span className="place-cell">
      <span>{place}</span>
      <small className="muted tabular">{time}</small>
      {extra && <small className="muted">{extra}</small>}
    </span>
  );
}
