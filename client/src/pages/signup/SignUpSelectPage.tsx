import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';

/** /signup/select: register as a shipper or as a carrier. */
export default function SignUpSelectPage() {
  const { t } = useTranslation();
  const choices = [
    {
      href: '/signup/shipper',
      icon: 'pi-box',
      title: t('signup.asShipper'),
      text: t('signup.asShipperText'),
      points: [t('signup.shipperPoint1'), t('signup.shipperPoint2')],
    },
    {
      href: '/signup/carrier',
      icon: 'pi-truck',
      title: t('signup.asCarrier'),
      text: t('signup.asCarrierText'),
      points: [t('signup.carrierPoint1'), t('signup.carrierPoint2')],
    },
  ];
  return (
    <AuthFrame
      title={t('routes.signUpSelect')}
      subtitle={t('signup.selectSubtitle')}
      icon="pi-user-plus"
      wide
    >
      <ul className="role-choices">
        {choices.map((choice) => (
          <li key={choice.href}>
            <Link href={choice.href} className="role-choice">
              <span className="role-choice-icon" aria-hidden="true">
                <i className={`pi ${choice.icon}`} />
              </span>
              <span className="role-choice-title">{choice.title}</span>
              <span className="role-choice-text">{choice.text}</span>
              <ul className="role-choice-points">
                {choice.points.map((point) => (
                  <li key={point}>
                    <i className="pi pi-check" aria-hidden="true" /> {point}
                  </li>
                ))}
              </ul>
              <span className="role-choice-go">
                {t('signup.start')} <i className="pi pi-arrow-right flip-rtl" aria-hidden="true" />
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="auth-switch">
        {t('signup.haveAccount')} <Link href={paths.signIn}>{t('signIn.submit')}</Link>
      </p>
    </AuthFrame>
  );
}
