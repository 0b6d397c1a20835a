import { useAtomValue } from 'jotai';
import { Message } from 'primereact/message';
import { useTranslation } from 'react-i18next';
import { authUserAtom } from '../state/session.ts';

/**
 * Above every page while the user's organization waits for its vetting (Pending): the server lets
 * such a user see and correct the account and answers 'Your organization is not active yet' to the
 * rest, so the wait is said once, plainly, instead of through each page's error.
 */
export function OrganizationWaiting() {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  if (user?.organization?.status !== 1) return null;
  return (
    <Message
      severity="info"
      className="organization-waiting"
      text={t('usersAdmin.waiting')}
      style={{ width: '100%', justifyContent: 'flex-start', marginBottom: '1rem' }}
    />
  );
}
