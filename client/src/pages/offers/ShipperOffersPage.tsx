import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { TrustBadge } from '../../components/TrustBadge.tsx';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import { notify } from '../../state/common.ts';
import { useFormats } from '../../shared/format.ts';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi, type LoadDetail } from '../../shared/loads/loads.api.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { ContractPanel } from './ContractPanel.tsx';
import { offersApi, OfferStatus, type OfferMapMarker, type OfferRow } from './offers.api.ts';
import { PRICE_MESSAGE } from './OfferForm.tsx';
import { AnswerOfferDialog } from './AnswerOfferDialog.tsx';
import {
  type TermsFormValues,
  termsFormOf,
  termsOf,
  toTerms,
  validateTerms,
} from '../../shared/terms/terms.ts';
import { useOfferColumns } from './offerColumns.tsx';
import { OffersMap } from './OffersMap.tsx';
import '../../shared/styles/marketplace.css';

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
  const [markers, setMarkers] = useState<OfferMapMarker[]>([]);
  const [refreshKey, setRefreshKey] = useState(0);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<{ row: OfferRow; status: number } | null>(null);
  const [counterPrice, setCounterPrice] = useState<number | null>(null);
  const [counterError, setCounterError] = useState<string | null>(null);
  const [counterTerms, setCounterTerms] = useState<TermsFormValues>(() => termsFormOf(null, false));
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
    if (status === OfferStatus.PendingAcceptance && !(counterPrice && counterPrice > 0)) {
      setCounterError(messageText(PRICE_MESSAGE));
      return;
    }
    setBusy(true);
    try {
      await offersApi.change(
        row.id,
        status,
        status === OfferStatus.PendingAcceptance
          ? {
              price: counterPrice!,
              ...(counterTerms.enabled && Object.keys(validateTerms(counterTerms)).length === 0
                ? { terms: toTerms(counterTerms) }
                : {}),
            }
          : {},
      );
      const key =
        status === OfferStatus.Accepted
          ? 'accepted'
          : status === OfferStatus.Declined
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

  const open = (row: OfferRow, status: number) => {
    setCounterPrice(row.price);
    setCounterError(null);
    // A counter starts from the offer's terms when it proposed some, else from the load's.
    const proposed = termsOf(row);
    setCounterTerms(termsFormOf(proposed ?? termsOf(load), false));
    setConfirming({ row, status });
  };

  const columns = useOfferColumns({
    fresh,
    onAnswer: open,
    ...(load ? { loadTerms: termsOf(load) } : {}),
  });

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
          {load.trust && <TrustBadge trust={load.trust} />}
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
          <GenericTable<OfferRow>
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
        <OffersMap markers={markers} />
      </div>
      <AnswerOfferDialog
        confirming={confirming}
        counterPrice={counterPrice}
        counterError={counterError}
        busy={busy}
        onCounterPrice={setCounterPrice}
        onCounterError={setCounterError}
        onHide={() => setConfirming(null)}
        onAnswer={answer}
        counterTerms={counterTerms}
        onCounterTerms={setCounterTerms}
      />
    </section>
  );
}
