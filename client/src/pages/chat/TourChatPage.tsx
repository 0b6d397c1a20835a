import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { authUserAtom } from '../../state/session.ts';
import { formatLocal } from '../../shared/format.ts';
import { tourIdOf } from '../../shared/tours/tourId.ts';
import { type ChatMessage, type TourDetail, toursApi } from '../../shared/tours/tours.api.ts';
import { useTourChannel } from '../../shared/tours/tourChannel.ts';
import '../../shared/tours/tours.css';
import './chat.css';

const MAX_LENGTH = 2000;

const byTime = (a: ChatMessage, b: ChatMessage) =>
  a.at.localeCompare(b.at) || a.id.localeCompare(b.id);

/** /chat/tour?id= (bare layout): the tour's chat among shipper, carrier and driver, live. */
export default function TourChatPage({ titleKey, params }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const user = useAtomValue(authUserAtom);
  const tourId = tourIdOf(params, useSearch());
  const [tour, setTour] = useState<TourDetail | null>(null);
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [live, setLive] = useState(false);
  const list = useRef<HTMLOListElement>(null);

  const merge = (incoming: ChatMessage[]) =>
    setMessages((current) => {
      const known = new Map((current ?? []).map((message) => [message.id, message]));
      for (const message of incoming) known.set(message.id, message);
      return [...known.values()].sort(byTime);
    });

  const load = useCallback(async () => {
    if (!tourId) return;
    try {
      const [detail, history] = await Promise.all([
        toursApi.tour(tourId).catch(() => null),
        toursApi.chat(tourId),
      ]);
      setTour(detail);
      merge(history);
      setFailed(null);
    } catch (failure) {
      setFailed(messageOf(failure));
    }
  }, [tourId]);

  useEffect(() => {
    void load();
  }, [load]);

  useTourChannel(
    tourId,
    {
      onLive: (now) => {
        setLive(now);
        // Messages sent while the channel was down arrive with the history.
        if (now) void load();
      },
      onMessage: (message) => merge([message]),
    },
    Boolean(tourId),
  );

  // The newest message stays in view.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages?.length]);

  const send = async () => {
    const message = text.trim();
    if (!tourId || message === '') {
      setError(t('chat.empty'));
      return;
    }
    setSending(true);
    try {
      const { id } = await toursApi.postChat(tourId, message);
      merge([
        {
          id,
          user: { id: user?.id ?? '', name: user?.name ?? '' },
          organizationId: user?.organization?.id ?? null,
          text: message,
          at: new Date().toISOString(),
        },
      ]);
      setText('');
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  if (!tourId) {
    return (
      <section className="page page-chat">
        <h1>{t(titleKey)}</h1>
        <p className="card">{t('track.noTour')}</p>
      </section>
    );
  }

  return (
    <section className="page page-chat">
      <header className="chat-header">
        <h1>
          {t(titleKey)}
          {tour ? ` · ${tour.loadGuid}` : ''}
        </h1>
        <div className="chat-header-side">
          <span className={`live-badge${live ? ' is-live' : ''}`} role="status">
            <span className="live-dot" aria-hidden="true" />{' '}
            {live ? t('track.live') : t('track.offline')}
          </span>
          <Link href={`/track/tour/${tourId}`} className="p-button p-button-outlined p-button-sm">
            <i className="pi pi-map p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('chat.track')}</span>
          </Link>
        </div>
      </header>
      <div className="card chat-card">
        {failed && messages === null ? (
          <div className="chat-empty" role="alert">
            <p>{failed}</p>
            <Button
              type="button"
              label={t('common.retry')}
              icon="pi pi-refresh"
              onClick={() => void load()}
            />
          </div>
        ) : messages === null ? (
          <ol className="chat-list" aria-busy="true">
            {[0, 1, 2].map((index) => (
              <li
                key={index}
                className={`chat-message skeleton-bubble${index === 1 ? ' is-mine' : ''}`}
              />
            ))}
          </ol>
        ) : messages.length === 0 ? (
          <p className="chat-empty muted">{t('chat.noMessages')}</p>
        ) : (
          <ol className="chat-list" ref={list} aria-live="polite" aria-label={t('chat.messages')}>
            {messages.map((message) => {
              const mine = message.user.id === user?.id;
              return (
                <li key={message.id} className={`chat-message${mine ? ' is-mine' : ''}`}>
                  <div className="chat-meta">
                    <strong>
                      {mine ? t('chat.you') : (message.user.name ?? t('chat.someone'))}
                    </strong>
                    <time className="tabular" dateTime={message.at}>
                      {formatLocal(message.at, lng)}
                    </time>
                  </div>
                  <p className="chat-text">{message.text}</p>
                </li>
              );
            })}
          </ol>
        )}
        <form
          className="chat-form"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <InputTextarea
            value={text}
            rows={2}
            autoResize
            maxLength={MAX_LENGTH}
            placeholder={t('chat.placeholder')}
            aria-label={t('chat.label')}
            invalid={Boolean(error)}
            onKeyDown={onKeyDown}
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
          />
          <Button type="submit" icon="pi pi-send" label={t('chat.send')} loading={sending} />
        </form>
        {error && (
          <small className="p-error" role="alert">
            {error}
          </small>
        )}
      </div>
    </section>
  );
}
