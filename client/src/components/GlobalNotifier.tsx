import { useAtomValue } from 'jotai';
import { ProgressBar } from 'primereact/progressbar';
import { Toast } from 'primereact/toast';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { commonAtom, hideMessage, snackQueueAtom } from '../state/common.ts';
import { appStore } from '../state/session.ts';
import { useMessageText } from './messages.ts';

/** Snackbars close after 6 s (specification section 9). */
export const SNACKBAR_LIFE_MS = 6_000;
/** The one error the notifier keeps quiet about (specification section 4). */
const SILENT_ERROR = 'Error: Token not valid';

/** The global notifier: a loading bar, a success snackbar for messages and an error snackbar for errors. */
export function GlobalNotifier() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const { loading, error, message } = useAtomValue(commonAtom);
  const queue = useAtomValue(snackQueueAtom);
  const toast = useRef<Toast>(null);
  const summaries = {
    success: t('snackbar.success'),
    info: t('snackbar.info'),
    warn: t('snackbar.warning'),
    error: t('snackbar.error'),
  };

  useEffect(() => {
    if (!message && !error) return;
    if (message)
      toast.current?.show({
        severity: 'success',
        summary: summaries.success,
        detail: messageText(message),
        life: SNACKBAR_LIFE_MS,
      });
    if (error && error !== SILENT_ERROR)
      toast.current?.show({
        severity: 'error',
        summary: summaries.error,
        detail: messageText(error),
        life: SNACKBAR_LIFE_MS,
      });
    hideMessage();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- shown once per message
  }, [message, error]);

  useEffect(() => {
    if (queue.length === 0) return;
    for (const snack of queue) {
      toast.current?.show({
        severity: snack.severity,
        summary: summaries[snack.severity],
        detail: messageText(snack.text),
        life: SNACKBAR_LIFE_MS,
      });
    }
    appStore.set(snackQueueAtom, []);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- drained once per batch
  }, [queue]);

  return (
    <>
      {loading && (
        <ProgressBar
          mode="indeterminate"
          className="global-loading"
          aria-label={t('common.loading')}
        />
      )}
      <Toast ref={toast} position="bottom-center" />
    </>
  );
}
