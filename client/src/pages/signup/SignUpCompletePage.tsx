import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { SIGNUP_EMAIL_KEY } from './SignUpPage.tsx';

export function storedSignUpEmail(): string {
  try {
    return window.sessionStorage.getItem(SIGNUP_EMAIL_KEY) ?? '';
  } catch {
    return '';
  }
}

/** /signup-complete: the registration is in; what happens next, and the way to the code. */
export default function SignUpCompletePage() {
  const { t } = useTranslation();
  const email = storedSignUpEmail();
  const next = [
    { icon: 'pi-envelope', text: email ? t('signup.nextCodeTo', { email }) : t('signup.nextCode') },
    { icon: 'pi-key', text: t('signup.nextConfirm') },
    { icon: 'pi-verified', text: t('signup.nextActivate') },
  ];
  return (
    <AuthFrame
      title={t('routes.signUpComplete')}
      subtitle={t('signup.completeSubtitle')}
      icon="pi-check-circle"
    >
      <div className="auth-form">
        <ol className="next-steps">
          {next.map((item) => (
            <li key={item.icon}>
              <i className={`pi ${item.icon}`} aria-hidden="true" />
              <span>{item.text}</span>
            </li>
          ))}
        </ol>
        <Link
          href={email ? `/confirm-signup?email=${encodeURIComponent(email)}` : '/confirm-signup'}
          className="p-button p-component auth-submit"
        >
          <i className="pi pi-key p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('signup.enterCode')}</span>
        </Link>
      </div>
    </AuthFrame>
  );
}
