import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputNumber } from 'primereact/inputnumber';
import { InputTextarea } from 'primereact/inputtextarea';
import { Skeleton } from 'primereact/skeleton';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGetBlob, messageOf } from '../../api/http.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { notify } from '../../state/common.ts';
import { authUserAtom, roleNames } from '../../state/session.ts';
import { formatLocal, formatNumber, formatPrice } from '../format.ts';
import { openBlob } from '../loads/loads.api.ts';
import {
  type Claim,
  type ClaimAction,
  type ClaimViewer,
  claimActions,
  claimKinds,
  claimStatuses,
  claimsApi,
  claimViewerOf,
} from './claims.api.ts';
import { formatDuration } from './DetentionClock.tsx';
import './claims.css';

/** The socket's claim events (the webhooks carry the same names). */
export const accessorialEvents = [
  'accessorial.claimed',
  'accessorial.approved',
  'accessorial.disputed',
  'accessorial.answered',
  'accessorial.settled',
] as const;

type Asking = { claim: Claim; action: Exclude<ClaimAction, 'approve'> };

const isClaim = (value: unknown): value is Claim =>
  typeof value === 'object' && value !== null && 'id' in value && 'status' in value;

/**
 * A tour's accessorial claims (detention, TONU, layover, lumper) with the evidence the platform
 * recorded, and what the viewer may do: the shipper approves or disputes with a reason, the
 * carrier answers a dispute, a Superadmin settles with an amount and a note. Live: a claim pushed
 * over the socket (`accessorial.*`) is read again at once and highlighted.
 */
export function ClaimsPanel({
  tourId,
  stopNames = [],
  viewer: viewerProp,
}: {
  tourId: string;
  /** The tour's stops' names in order, to name a claim's stop. */
  stopNames?: readonly string[];
  /** Who looks (from the signed-in user when absent). */
  viewer?: ClaimViewer;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const user = useAtomValue(authUserAtom);
  const viewer = viewerProp ?? claimViewerOf(roleNames(user));
  const [claims, setClaims] = useState<Claim[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [flash, setFlash] = useState<Set<string>>(new Set());
  const [asking, setAsking] = useState<Asking | null>(null);
  /** Claims this screen just changed: their pushed event is not announced again. */
  const mine = useRef(new Set<string>());

  const read = useCallback(async () => {
    try {
      setClaims(await claimsApi.list(tourId));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [tourId]);

  useEffect(() => {
    setClaims(null);
    void read();
  }, [read]);

  const highlight = (claimId: string) => {
    setFlash((current) => new Set(current).add(claimId));
    setTimeout(
      () =>
        setFlash((current) => {
          const next = new Set(current);
          next.delete(claimId);
          return next;
        }),
      4_000,
    );
  };

  useRealtime(accessorialEvents, (_event, payload) => {
    if (payload.tourId !== tourId) return;
    if (payload.claimId) highlight(payload.claimId);
    // Announced when the event names the claim's kind and status (a change made elsewhere).
    const own = payload.claimId !== undefined && mine.current.has(payload.claimId);
    if (!own && payload.kind && payload.status && claimKinds.includes(payload.kind))
      notify(
        'info',
        t('accessorials.claims.changed', {
          kind: t(`accessorials.claims.kinds.${payload.kind}`),
          status: claimStatuses.includes(payload.status)
            ? t(`accessorials.claims.statuses.${payload.status}`)
            : payload.status,
        }),
      );
    void read();
  });
  useOnReconnect(() => void read());

  const kindText = (claim: Claim) =>
    claimKinds.includes(claim.kind)
      ? t(`accessorials.claims.kinds.${claim.kind}`)
      : String(claim.kind);
  const statusText = (claim: Claim) =>
    claimStatuses.includes(claim.status)
      ? t(`accessorials.claims.statuses.${claim.status}`)
      : String(claim.status);

  const applied = (claim: Claim, answer: unknown) => {
    mine.current.add(claim.id);
    setTimeout(() => mine.current.delete(claim.id), 10_000);
    if (isClaim(answer))
      setClaims(
        (current) => current?.map((entry) => (entry.id === answer.id ? answer : entry)) ?? null,
      );
    highlight(claim.id);
    void read();
  };

  const approve = async (claim: Claim) => {
    setBusyId(claim.id);
    try {
      applied(claim, await claimsApi.approve(tourId, claim.id));
      notify('success', t('accessorials.claims.approved'));
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setBusyId(null);
    }
  };

  const openReceipt = async (fileId: string) => {
    try {
      openBlob(await apiGetBlob(`/files/${encodeURIComponent(fileId)}`));
    } catch (error) {
      notify('error', messageOf(error));
    }
  };

  const stopLabel = (claim: Claim) => {
    if (claim.stopIndex === null || claim.stopIndex === undefined) return null;
    const name = stopNames[claim.stopIndex];
    const number = t('accessorials.claims.stop', { number: claim.stopIndex + 1 });
    return name ? `${number} · ${name}` : number;
  };

  if (viewer === 'driver' || viewer === 'none') return null;

  return (
    <section className="card claims-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('accessorials.claims.title')}</h2>
      {claims === null && !failed ? (
        <div role="status" aria-label={t('common.loading')}>
          <Skeleton height="4rem" className="mb-2" />
        </div>
      ) : failed && claims === null ? (
        <div role="alert">
          <p>{t('accessorials.claims.failed')}</p>
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-refresh"
            label={t('common.retry')}
            onClick={() => void read()}
          />
        </div>
      ) : claims && claims.length === 0 ? (
        <p className="muted">{t('accessorials.claims.empty')}</p>
      ) : (
        <ul className="claims-list" aria-live="polite">
          {(claims ?? []).map((claim) => {
            const actions = claimActions(viewer, claim.status);
            const amount = formatPrice(claim.amount, lng);
            const kind = kindText(claim);
            const stop = stopLabel(claim);
            return (
              <li
                key={claim.id}
                className={`claim-item${flash.has(claim.id) ? ' is-flash' : ''}`}
                aria-label={`${kind} ${amount} ${statusText(claim)}`}
              >
                <div className="claim-head">
                  <span>
                    <strong>{kind}</strong>
                    {stop && <span className="muted"> · {stop}</span>}
                  </span>
                  <span className="claim-amount tabular">{amount}</span>
                  <span className={`claim-status is-${claim.status}`}>{statusText(claim)}</span>
                </div>
                <dl
                  className="claim-evidence tabular"
                  aria-label={t('accessorials.claims.evidence')}
                >
                  {claim.minutes !== null && claim.minutes !== undefined && (
                    <div>
                      <dt>{t('accessorials.claims.minutes')}</dt>
                      <dd>{formatDuration(claim.minutes, t)}</dd>
                    </div>
                  )}
                  {claim.evidence?.appointmentAt && (
                    <div>
                      <dt>{t('accessorials.claims.appointmentAt')}</dt>
                      <dd>{formatLocal(claim.evidence.appointmentAt, lng)}</dd>
                    </div>
                  )}
                  {claim.evidence?.arrivedAt && (
                    <div>
                      <dt>{t('accessorials.claims.arrivedAt')}</dt>
                      <dd>{formatLocal(claim.evidence.arrivedAt, lng)}</dd>
                    </div>
                  )}
                  {claim.evidence?.leftAt && (
                    <div>
                      <dt>{t('accessorials.claims.leftAt')}</dt>
                      <dd>{formatLocal(claim.evidence.leftAt, lng)}</dd>
                    </div>
                  )}
                  {claim.evidence?.arrivedAt && Array.isArray(claim.evidence.positionsInside) && (
                    <div>
                      <dt>{t('accessorials.claims.positionsInside')}</dt>
                      <dd>{formatNumber(claim.evidence.positionsInside.length, lng) || '0'}</dd>
                    </div>
                  )}
                  {claim.evidence?.receiptFileId && (
                    <div>
                      <dt>{t('accessorials.claims.receipt')}</dt>
                      <dd>
                        <Button
                          type="button"
                          link
                          size="small"
                          className="p-0"
                          icon="pi pi-file"
                          label={t('accessorials.claims.openReceipt')}
                          onClick={() => void openReceipt(claim.evidence.receiptFileId!)}
                        />
                      </dd>
                    </div>
                  )}
                </dl>
                {/* An answer to a dispute is also the carrier's latest note: shown once, as the answer. */}
                {claim.note && claim.note !== claim.answer && (
                  <p className="claim-note">
                    <span className="muted">{t('accessorials.claims.note')}: </span>
                    {claim.note}
                  </p>
                )}
                {claim.disputeReason && (
                  <p className="claim-note">
                    <span className="muted">{t('accessorials.claims.reason')}: </span>
                    {claim.disputeReason}
                  </p>
                )}
                {claim.answer && (
                  <p className="claim-note">
                    <span className="muted">{t('accessorials.claims.answerShown')}: </span>
                    {claim.answer}
                  </p>
                )}
                {claim.status === 'settled' &&
                  claim.settledAmount !== null &&
                  claim.settledAmount !== undefined && (
                    <p className="claim-note">
                      {t('accessorials.claims.settledShown', {
                        amount: formatPrice(claim.settledAmount, lng),
                      })}
                      {claim.settlementNote ? ` · ${claim.settlementNote}` : ''}
                    </p>
                  )}
                {claim.dueAt && (claim.status === 'claimed' || claim.status === 'answered') && (
                  <p className="muted tabular">
                    {t('accessorials.claims.dueAt', { time: formatLocal(claim.dueAt, lng) })}
                  </p>
                )}
                {actions.length > 0 && (
                  <div className="claim-actions">
                    {actions.includes('approve') && (
                      <Button
                        type="button"
                        size="small"
                        severity="success"
                        icon="pi pi-check"
                        label={t('accessorials.claims.approve')}
                        aria-label={t('accessorials.claims.approveLabel', { kind, amount })}
                        loading={busyId === claim.id}
                        onClick={() => void approve(claim)}
                      />
                    )}
                    {actions.includes('dispute') && (
                      <Button
                        type="button"
                        size="small"
                        outlined
                        severity="danger"
                        icon="pi pi-times"
                        label={t('accessorials.claims.dispute')}
                        disabled={busyId === claim.id}
                        onClick={() => setAsking({ claim, action: 'dispute' })}
                      />
                    )}
                    {actions.includes('answer') && (
                      <Button
                        type="button"
                        size="small"
                        icon="pi pi-reply"
                        label={t('accessorials.claims.answer')}
                        onClick={() => setAsking({ claim, action: 'answer' })}
                      />
                    )}
                    {actions.includes('settle') && (
                      <Button
                        type="button"
                        size="small"
                        icon="pi pi-verified"
                        label={t('accessorials.claims.settle')}
                        onClick={() => setAsking({ claim, action: 'settle' })}
                      />
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {asking && (
        <ClaimAnswerDialog
          tourId={tourId}
          asking={asking}
          kind={kindText(asking.claim)}
          onHide={() => setAsking(null)}
          onDone={(answer) => {
            applied(asking.claim, answer);
            setAsking(null);
          }}
        />
      )}
    </section>
  );
}

/** The dispute's reason, the carrier's answer, or the Superadmin's amount and note. */
function ClaimAnswerDialog({
  tourId,
  asking,
  kind,
  onHide,
  onDone,
}: {
  tourId: string;
  asking: Asking;
  kind: string;
  onHide: () => void;
  onDone: (answer: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const { claim, action } = asking;
  const [text, setText] = useState('');
  const [amount, setAmount] = useState<number | null>(action === 'settle' ? claim.amount : null);
  const [errors, setErrors] = useState<{ text?: string; amount?: string }>({});
  const [busy, setBusy] = useState(false);
  const price = formatPrice(claim.amount, lng);
  const header =
    action === 'dispute'
      ? t('accessorials.claims.disputeTitle', { kind, amount: price })
      : action === 'answer'
        ? t('accessorials.claims.answerTitle', { kind })
        : t('accessorials.claims.settleTitle', { kind, amount: price });
  const textLabel =
    action === 'dispute'
      ? t('accessorials.claims.reason')
      : action === 'answer'
        ? t('accessorials.claims.text')
        : t('accessorials.claims.settleNote');

  const send = async () => {
    const problems: typeof errors = {};
    if (text.trim() === '') problems.text = t('accessorials.claims.required');
    if (action === 'settle' && (amount === null || !(amount >= 0)))
      problems.amount = t('accessorials.claims.amountRequired');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const answer =
        action === 'dispute'
          ? await claimsApi.dispute(tourId, claim.id, text.trim())
          : action === 'answer'
            ? await claimsApi.answer(tourId, claim.id, text.trim())
            : await claimsApi.settle(
                tourId,
                claim.id,
                Math.round(amount! * 100) / 100,
                text.trim(),
              );
      notify(
        'success',
        t(
          action === 'dispute'
            ? 'accessorials.claims.disputed'
            : action === 'answer'
              ? 'accessorials.claims.answered'
              : 'accessorials.claims.settled',
        ),
      );
      onDone(answer);
    } catch (error) {
      // What was typed stays; the server's reason shows.
      notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      header={header}
      visible
      onHide={onHide}
      style={{ width: 'min(30rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.cancel')}
            onClick={onHide}
          />
          <Button
            type="button"
            icon="pi pi-send"
            severity={action === 'dispute' ? 'danger' : undefined}
            label={t('accessorials.claims.send')}
            loading={busy}
            onClick={() => void send()}
          />
        </div>
      }
    >
      {action === 'settle' && (
        <div className="form-field">
          <label htmlFor={`${id}-amount`}>{t('accessorials.claims.settledAmount')}</label>
          <InputNumber
            inputId={`${id}-amount`}
            value={amount}
            onChange={(event) => {
              setAmount(event.value ?? null);
              setErrors((current) => ({ ...current, amount: undefined }));
            }}
            onValueChange={(event) => setAmount(event.value ?? null)}
            mode="currency"
            currency="USD"
            locale={lng === 'ar' ? 'en-US' : lng}
            min={0}
            maxFractionDigits={2}
            invalid={Boolean(errors.amount)}
            aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
          />
          {errors.amount && (
            <small id={`${id}-amount-error`} className="p-error">
              {errors.amount}
            </small>
          )}
        </div>
      )}
      <div className="form-field">
        <label htmlFor={`${id}-text`}>{textLabel}</label>
        <InputTextarea
          id={`${id}-text`}
          rows={4}
          value={text}
          maxLength={2000}
          invalid={Boolean(errors.text)}
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={errors.text ? `${id}-text-error` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setErrors((current) => ({ ...current, text: undefined }));
          }}
        />
        {errors.text && (
          <small id={`${id}-text-error`} className="p-error">
            {errors.text}
          </small>
        )}
      </div>
    </Dialog>
  );
}
