import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { OFFER_SUBMIT, PROPOSAL_SUBMIT } from '../../../../domain/permissions.ts';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { notify } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import { useFormats } from '../../shared/format.ts';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi, type LoadDetail } from '../../shared/loads/loads.api.ts';
import { LoadSummary } from '../../shared/loads/LoadSummary.tsx';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { LaneRatesCard } from '../../shared/laneRates/LaneRatesCard.tsx';
import { ContractPanel } from './ContractPanel.tsx';
import { TermsDetails } from '../../shared/terms/TermsSummary.tsx';
import { BookNowBadge, BookNowButton } from '../../shared/loads/BookNow.tsx';
import { type AccessorialTerms, counterTermsOf, termsOf } from '../../shared/terms/terms.ts';
import { OfferForm } from './OfferForm.tsx';
import { OfferTrucksCard } from './OfferTrucksCard.tsx';
import {
  type EldTruck,
  offersApi,
  OfferStatus,
  type OfferRow,
  trucksNearest,
} from './offers.api.ts';
import '../../shared/styles/marketplace.css';

/**
 * Make an offer (`/offer/load?id=<loadId>`): the load's details, then price, message and the
 * carrier's ELD truck (nearest to the pickup first). An open offer can be revised or withdrawn; a
 * counter-offer from the shipper shows live and can be accepted; once accepted, the contract.
 */
export default function OfferLoadPage({ titleKey, params }: PageProps) {
  const { t } = useTranslation();
  const format = useFormats();
  const messageText = useMessageText();
  const user = useAtomValue(authUserAtom);
  const search = useSearch();
  const loadId = params.id ?? new URLSearchParams(search).get('id') ?? '';
  const canOffer = Boolean(
    user?.permissions.some((code) => code === OFFER_SUBMIT || code === PROPOSAL_SUBMIT),
  );
  const [load, setLoad] = useState<LoadDetail | null>(null);
  /** 'gone': the load is not (or no longer) on this carrier's marketplace, the server's 404. */
  const [failed, setFailed] = useState<'gone' | 'error' | null>(null);
  const [offer, setOffer] = useState<OfferRow | null>(null);
  const [trucks, setTrucks] = useState<EldTruck[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [flash, setFlash] = useState(false);

  const readOffer = useCallback(async () => {
    if (!loadId || !canOffer) return;
    try {
      const answer = await offersApi.onLoad(loadId);
      setOffer(answer.data[0] ?? null);
    } catch (error) {
      // No offer of ours on this load yet: the server answers 404.
      if (error instanceof ApiError && error.status === 404) setOffer(null);
    }
  }, [loadId, canOffer]);

  const readLoad = useCallback(() => {
    if (!loadId) return;
    loadsApi
      .get(loadId)
      .then(setLoad)
      .catch((error: unknown) =>
        setFailed(error instanceof ApiError && error.status === 404 ? 'gone' : 'error'),
      );
  }, [loadId]);

  useEffect(() => {
    readLoad();
    void readOffer();
  }, [readLoad, readOffer]);

  useEffect(() => {
    if (!load || !canOffer) return;
    const pickup = load.locations[0];
    if (!pickup) return;
    trucksNearest(pickup.latitude, pickup.longitude)
      .then(setTrucks)
      .catch(() => setTrucks([]));
  }, [load?.id, canOffer]);

  // One load and one offer: the pushed offer shows at once, and both are read again (with the
  // actions the server allows now).
  useRealtime(['proposal:updated'], (_, payload) => {
    if (payload.loadId !== loadId) return;
    if (offer && payload.proposalId === offer.id) {
      setOffer((current) =>
        current && current.id === payload.proposalId
          ? {
              ...current,
              status: payload.status,
              price: payload.price,
              counterPrice: payload.counterPrice,
            }
          : current,
      );
      if (Number(payload.status) === OfferStatus.PendingAcceptance) {
        notify(
          'info',
          t('marketplace.offer.counterArrived', {
            price: format.price(Number(payload.counterPrice ?? payload.price)),
          }),
        );
      }
      setFlash(true);
      setTimeout(() => setFlash(false), 4_000);
    }
    readLoad();
    void readOffer();
  });
  useRealtime(['load:updated'], (_, row) => {
    if (row.id === loadId) readLoad();
  });
  useOnReconnect(() => {
    readLoad();
    void readOffer();
  });

  const submit = async (values: {
    price: number;
    message: string;
    eldTruckName: string | null;
    terms?: AccessorialTerms | null;
  }) => {
    setBusy(true);
    try {
      const answer = await offersApi.submit(loadId, values);
      notify('success', messageText(answer.message));
      await readOffer();
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    } finally {
      setBusy(false);
    }
  };

  const change = async (status: number, successKey: 'withdrawn' | 'counterAccepted') => {
    if (!offer) return;
    setBusy(true);
    try {
      await offersApi.change(offer.id, status);
      notify('success', t(`marketplace.offer.${successKey}`));
      await readOffer();
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    } finally {
      setBusy(false);
    }
  };

  if (!loadId || failed) {
    return (
      <section className="page">
        <header className="page-header">
          <h1>{t(titleKey, { id: '' })}</h1>
        </header>
        <div className="card empty-state">
          <i className="pi pi-exclamation-circle" aria-hidden="true" />
          <p>
            {failed === 'gone' ? t('marketplace.offer.gone') : t('messages.somethingWentWrong')}
          </p>
          <Link href="/loads/carrier" className="p-button p-component p-button-outlined">
            <span className="p-button-label">{t('marketplace.offer.backToSearch')}</span>
          </Link>
        </div>
      </section>
    );
  }

  const accepted =
    offer && (offer.status === OfferStatus.Accepted || offer.status === OfferStatus.Confirmed);
  const countered = offer?.status === OfferStatus.PendingAcceptance;
  const closed =
    offer && (offer.status === OfferStatus.Declined || offer.status === OfferStatus.Canceled);
  const loadOpen = load?.status === 4;

  return (
    <section className="page offer-page">
      <header className="page-header">
        <h1>
          {t(titleKey, { id: '' })}
          {load ? ` · ${load.guid}` : ''}
        </h1>
        <Link href="/loads/carrier" className="p-button p-component p-button-text">
          <i
            className="pi pi-arrow-left p-button-icon p-button-icon-left flip-rtl"
            aria-hidden="true"
          />
          <span className="p-button-label">{t('marketplace.offer.backToSearch')}</span>
        </Link>
      </header>
      <div className="offer-layout">
        <div className="card offer-load">
          {load ? (
            <LoadSummary load={load} />
          ) : (
            <>
              <Skeleton height="1.5rem" className="mb-2" />
              <Skeleton height="14rem" />
            </>
          )}
        </div>
        {canOffer && (
          <div className="offer-side">
            {offer && (
              <section
                className={`card my-offer-card${flash ? ' is-flash' : ''}`}
                aria-live="polite"
                aria-labelledby="my-offer-title"
              >
                <h2 id="my-offer-title">{t('marketplace.offer.yours')}</h2>
                <div className="my-offer-line">
                  <StatusChip name={offer.statusName} />
                  <strong className="offer-price tabular">{format.price(offer.price)}</strong>
                </div>
                {countered && offer.counterPrice !== null && (
                  <div className="counter-offer" role="status">
                    <p>
                      <i className="pi pi-reply" aria-hidden="true" />{' '}
                      {t('marketplace.offer.counterFrom', {
                        price: format.price(offer.counterPrice),
                      })}
                    </p>
                    <div className="counter-actions">
                      <Button
                        type="button"
                        severity="success"
                        icon="pi pi-check"
                        label={t('marketplace.offer.acceptCounter')}
                        loading={busy}
                        onClick={() => change(OfferStatus.SubmittedProposal, 'counterAccepted')}
                      />
                      <Button
                        type="button"
                        outlined
                        severity="danger"
                        icon="pi pi-undo"
                        label={t('marketplace.actions.withdraw')}
                        disabled={busy}
                        onClick={() => change(OfferStatus.Canceled, 'withdrawn')}
                      />
                    </div>
                  </div>
                )}
                {termsOf(offer) && (
                  <TermsDetails of={offer} title={t('accessorials.terms.offerTerms')} />
                )}
                {countered && counterTermsOf(offer) && (
                  <TermsDetails
                    of={{ terms: counterTermsOf(offer) }}
                    title={t('accessorials.terms.counterTerms')}
                  />
                )}
                {closed && <p className="muted">{t('marketplace.offer.closedHint')}</p>}
              </section>
            )}
            {accepted && load && offer ? (
              <ContractPanel
                loadId={load.id}
                loadGuid={load.guid}
                proposalId={offer.id}
                contractFileId={offer.contractFileId ?? load.contractFileId}
                canUpload={offer.status === OfferStatus.Accepted}
                onUploaded={() => {
                  readLoad();
                  void readOffer();
                }}
              />
            ) : loadOpen && !countered ? (
              <>
                {load && load.bookNowPrice != null && (
                  <section className="card book-now-card" aria-labelledby="book-now-title">
                    <h2 id="book-now-title">
                      <BookNowBadge load={load} />
                    </h2>
                    <BookNowButton load={load} />
                  </section>
                )}
                <section className="card" aria-labelledby="offer-form-title">
                  <h2 id="offer-form-title">
                    {offer && !closed
                      ? t('marketplace.offer.reviseTitle')
                      : t('marketplace.offer.formTitle')}
                  </h2>
                  <OfferForm
                    current={closed ? null : offer}
                    trucks={trucks}
                    busy={busy}
                    onSubmit={submit}
                    onWithdraw={() => change(OfferStatus.Canceled, 'withdrawn')}
                    messageText={messageText}
                    loadTerms={termsOf(load)}
                  />
                  {load && (
                    <LaneRatesCard
                      id="offer"
                      origin={load.locations[0] ?? null}
                      destination={load.locations.at(-1) ?? null}
                      equipment={load.loadEquipment}
                    />
                  )}
                </section>
              </>
            ) : load && !loadOpen && !accepted ? (
              <section className="card">
                <p className="muted">{t('marketplace.offer.loadClosed')}</p>
              </section>
            ) : null}
            {load && loadOpen && !accepted && (
              <OfferTrucksCard pickup={load.locations[0]} trucks={trucks} />
            )}
          </div>
        )}
      </div>
    </section>
  );
}
