import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputNumber } from 'primereact/inputnumber';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { GenericTable, type TableColumn } from '../../components/table/GenericTable.tsx';
import { notify } from '../../state/common.ts';
import { useFormats } from '../../shared/format.ts';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi, type LoadDetail } from '../../shared/loads/loads.api.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { ContractPanel } from './ContractPanel.tsx';
import {
  offersApi,
  ProposalStatus,
  type ProposalMapMarker,
  type ProposalRow,
} from './offers.api.ts';
import { PRICE_MESSAGE } from './OfferForm.tsx';
import '../../shared/styles/marketplace.css';

const kindOfMarker = (marker: ProposalMapMarker): MapMarker['kind'] => {
  if (marker.type === 'truck') return 'truck';
  if (marker.additionalInfo === 'Pickup') return 'pickup';
  if (marker.additionalInfo === 'Dropoff') return 'dropoff';
  return 'stop';
};

/**
 * The offers on one of the shipper's loads (`/offers/shipper/load?id=`): each carrier with its
 * ratings, price, message and truck; accept, decline or counter; a map of the stops and the
 * offering trucks; new offers arrive live. Once accepted, the contract.
 */
export default function ShipperOffersPage({ titleKey, params }: PageProps) {
  const { t } = useTranslation();
  const format = useFormats();
  const messageText = useMessageText();
  const search = useSearch();
  const loadId = params.id ?? new URLSearchParams(search).get('id') ?? '';
  const [load, setLoad] = useState<LoadDetail | null>(null);
  const [markers, setMarkers] = useState<ProposalMapMarker[]>([]);
  const [refreshKey, setRefreshKey] = useState(0);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<{ row: ProposalRow; status: number } | null>(null);
  const [counterPrice, setCounterPrice] = useState<number | null>(null);
  const [counterError, setCounterError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const readAll = useCallback(() => {
    if (!loadId) return;
    loadsApi
      .get(loadId)
      .then(setLoad)
      .catch(() => notify('error', t('messages.somethingWentWrong')));
    offersApi
      .mapMarkers(loadId)
      .then(setMarkers)
      .catch(() => setMarkers([]));
  }, [loadId, t]);

  useEffect(() => readAll(), [readAll]);

  // The offers of one load, their map and the load: read again on a new or changed offer (the
  // shipper's answers and the best price depend on all of them), and after a reconnection.
  useRealtime(['proposal:new', 'proposal:updated'], (event, payload) => {
    if (payload.loadId !== loadId) return;
    if (event === 'proposal:new' && typeof payload.proposalId === 'string') {
      const id = payload.proposalId;
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
    }
    setRefreshKey((key) => key + 1);
    readAll();
  });
  useOnReconnect(() => {
    setRefreshKey((key) => key + 1);
    readAll();
  });

  const answer = async () => {
    if (!confirming) return;
    const { row, status } = confirming;
    if (status === ProposalStatus.PendingAcceptance && !(counterPrice && counterPrice > 0)) {
      setCounterError(messageText(PRICE_MESSAGE));
      return;
    }
    setBusy(true);
    try {
      await offersApi.change(
        row.id,
        status,
        status === ProposalStatus.PendingAcceptance ? { price: counterPrice! } : {},
      );
      const key =
        status === ProposalStatus.Accepted
          ? 'accepted'
          : status === ProposalStatus.Declined
            ? 'declined'
            : 'countered';
      notify('success', t(`marketplace.offers.${key}`, { carrier: row.carrier.name }));
      setConfirming(null);
      setRefreshKey((value) => value + 1);
      readAll();
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    } finally {
      setBusy(false);
    }
  };

  const open = (row: ProposalRow, status: number) => {
    setCounterPrice(row.price);
    setCounterError(null);
    setConfirming({ row, status });
  };

  const columns: TableColumn<ProposalRow>[] = [
    {
      field: 'carrier',
      header: t('marketplace.columns.carrier'),
      body: (row) => (
        <span className="carrier-cell">
          <strong>{row.carrier.name}</strong>
          {fresh.has(row.id) && <span className="new-pill">{t('marketplace.search.new')}</span>}
          <Ratings ratings={row.carrier.ratings} />
        </span>
      ),
    },
    {
      field: 'price',
      header: t('marketplace.columns.price'),
      sortable: true,
      numeric: true,
      body: (row) => (
        <span className="price-cell">
          <strong>{format.price(row.price)}</strong>
          {row.counterPrice !== null && (
            <small className="muted">
              {t('marketplace.offers.yourCounter', { price: format.price(row.counterPrice) })}
            </small>
          )}
        </span>
      ),
    },
    {
      field: 'status',
      header: t('marketplace.columns.status'),
      body: (row) => <StatusChip name={row.statusName} />,
    },
    {
      field: 'message',
      header: t('marketplace.offer.message'),
      body: (row) => <span className="message-cell">{row.message || '—'}</span>,
    },
    {
      field: 'eldTruckName',
      header: t('marketplace.offer.truck'),
      body: (row) => row.eldTruckName ?? '—',
    },
    {
      field: 'submittedAt',
      header: t('marketplace.columns.submitted'),
      sortable: true,
      numeric: true,
      body: (row) => format.time(row.submittedAt),
    },
    {
      field: 'answer',
      header: t('marketplace.offers.answer'),
      body: (row) => (
        <div className="answer-buttons">
          {row.canAccept && (
            <Button
              type="button"
              size="small"
              severity="success"
              icon="pi pi-check"
              label={t('marketplace.offers.accept')}
              onClick={() => open(row, ProposalStatus.Accepted)}
            />
          )}
          {row.canCounter && (
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-reply"
              label={t('marketplace.offers.counter')}
              onClick={() => open(row, ProposalStatus.PendingAcceptance)}
            />
          )}
          {row.canDecline && (
            <Button
              type="button"
              size="small"
              text
              severity="danger"
              icon="pi pi-times"
              label={t('marketplace.offers.decline')}
              onClick={() => open(row, ProposalStatus.Declined)}
            />
          )}
        </div>
      ),
    },
  ];

  const mapMarkers: MapMarker[] = markers.map((marker, index) => ({
    id: marker.proposalId ?? `m${index}`,
    kind: kindOfMarker(marker),
    latitude: marker.latitude,
    longitude: marker.longitude,
    label: marker.type === 'truck' ? format.price(marker.price) : undefined,
    title: `${marker.name} · ${marker.address}`,
  }));
  const trucks = markers.filter((marker) => marker.type === 'truck');
  const acceptedId = load?.acceptedProposalId ?? null;

  return (
    <section className="page shipper-offers-page">
      <header className="page-header">
        <h1>
          {t(titleKey, { id: '' })}
          {load ? ` · ${load.guid}` : ''}
        </h1>
        <Link href="/loads/shipper" className="p-button p-component p-button-text">
          <i
            className="pi pi-arrow-left p-button-icon p-button-icon-left flip-rtl"
            aria-hidden="true"
          />
          <span className="p-button-label">{t('marketplace.offers.backToLoads')}</span>
        </Link>
      </header>
      {load && (
        <div className="card offer-load-strip">
          <strong className="tabular">{load.guid}</strong>
          <StatusChip name={load.statusName} />
          <span>
            {format.place(load.locations[0])} → {format.place(load.locations.at(-1))}
          </span>
          <span className="muted tabular">
            {format.time(load.pickupTimestampStart, load.pickupTimezone)}
          </span>
          <span className="muted">
            {format.equipment(load.loadEquipment)} · {format.weight(load.weight)}
          </span>
        </div>
      )}
      {load && acceptedId && (
        <ContractPanel
          loadId={load.id}
          loadGuid={load.guid}
          proposalId={acceptedId}
          contractFileId={load.contractFileId}
          canUpload={false}
        />
      )}
      <div className="offers-layout">
        {loadId && (
          <GenericTable<ProposalRow>
            title={t('marketplace.offers.tableTitle')}
            url={`/proposal/${encodeURIComponent(loadId)}`}
            columns={columns}
            refreshKey={refreshKey}
            empty={
              <div className="empty-state">
                <i className="pi pi-inbox" aria-hidden="true" />
                <p>{t('marketplace.offers.empty')}</p>
              </div>
            }
          />
        )}
        <aside className="offers-map">
          <MapPanel
            ariaLabel={t('marketplace.offers.mapLabel', { count: trucks.length })}
            markers={mapMarkers}
            height={360}
            maxFitZoom={9}
          />
          <ul className="map-legend">
            <li>
              <span className="legend-dot legend-pickup" aria-hidden="true" />{' '}
              {t('marketplace.locationTypes.1')}
            </li>
            <li>
              <span className="legend-dot legend-dropoff" aria-hidden="true" />{' '}
              {t('marketplace.locationTypes.4')}
            </li>
            <li>
              <span className="legend-arrow" aria-hidden="true" />{' '}
              {t('marketplace.offers.truckLegend', { count: trucks.length })}
            </li>
          </ul>
          {trucks.length > 0 && (
            <ul className="truck-list">
              {trucks.map((truck, index) => (
                <li key={truck.proposalId ?? index}>
                  <strong>{truck.name}</strong> · {truck.additionalInfo} ·{' '}
                  <span className="tabular">{format.price(truck.price)}</span>
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
      <Dialog
        header={
          confirming
            ? t(
                `marketplace.offers.confirm${confirming.status === ProposalStatus.Accepted ? 'Accept' : confirming.status === ProposalStatus.Declined ? 'Decline' : 'Counter'}`,
                { carrier: confirming.row.carrier.name },
              )
            : ''
        }
        visible={confirming !== null}
        onHide={() => setConfirming(null)}
        style={{ width: 'min(30rem, 95vw)' }}
        footer={
          <div className="dialog-actions">
            <Button
              type="button"
              text
              severity="secondary"
              label={t('common.cancel')}
              onClick={() => setConfirming(null)}
            />
            <Button
              type="button"
              severity={
                confirming?.status === ProposalStatus.Declined
                  ? 'danger'
                  : confirming?.status === ProposalStatus.Accepted
                    ? 'success'
                    : undefined
              }
              label={
                confirming?.status === ProposalStatus.Accepted
                  ? t('marketplace.offers.accept')
                  : confirming?.status === ProposalStatus.Declined
                    ? t('marketplace.offers.decline')
                    : t('marketplace.offers.sendCounter')
              }
              loading={busy}
              onClick={answer}
            />
          </div>
        }
      >
        {confirming && (
          <>
            <p>
              {t('marketplace.offers.offerOf', {
                carrier: confirming.row.carrier.name,
                price: format.price(confirming.row.price),
              })}
            </p>
            {confirming.status === ProposalStatus.Accepted && (
              <p className="muted">{t('marketplace.offers.acceptHint')}</p>
            )}
            {confirming.status === ProposalStatus.PendingAcceptance && (
              <div className="form-field">
                <label htmlFor="counter-price">{t('marketplace.offers.counterPrice')}</label>
                <InputNumber
                  inputId="counter-price"
                  value={counterPrice}
                  onChange={(event) => {
                    setCounterPrice(event.value ?? null);
                    setCounterError(null);
                  }}
                  onValueChange={(event) => setCounterPrice(event.value ?? null)}
                  mode="currency"
                  currency="USD"
                  locale="en-US"
                  min={0}
                  invalid={Boolean(counterError)}
                />
                {counterError && <small className="p-error">{counterError}</small>}
              </div>
            )}
          </>
        )}
      </Dialog>
    </section>
  );
}

function Ratings({ ratings }: { ratings: Record<string, number> }) {
  const entries = Object.entries(ratings);
  if (entries.length === 0) return null;
  const average = entries.reduce((sum, [, value]) => sum + value, 0) / entries.length;
  return (
    <small
      className="ratings-line"
      title={entries.map(([name, value]) => `${name}: ${value.toFixed(2)}`).join('\n')}
    >
      <i className="pi pi-star-fill" aria-hidden="true" />{' '}
      <span className="tabular">{average.toFixed(2)}</span>
      <span className="visually-hidden">
        {entries.map(([name, value]) => `${name}: ${value.toFixed(2)}`).join(', ')}
      </span>
    </small>
  );
}
