import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';

/** The public landing page (its content sections come with a later release): the pitch and LOGIN. */
export default function LandingPage() {
  const { t } = useTranslation();
  const features = [
    { icon: 'pi-box', title: t('landing.shippersTitle'), text: t('landing.shippersText') },
    { icon: 'pi-truck', title: t('landing.carriersTitle'), text: t('landing.carriersText') },
    { icon: 'pi-map-marker', title: t('landing.trackingTitle'), text: t('landing.trackingText') },
  ];
  return (
    <section className="page page-landing">
      <div className="landing-hero">
        <h1>{t('app.name')}</h1>
        <p className="lead">{t('landing.tagline')}</p>
        <div className="landing-actions">
          <Link href={paths.signIn} className="p-button p-component">
            <i className="pi pi-sign-in p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('landing.login')}</span>
          </Link>
          <Link href={paths.signUpSelect} className="p-button p-component p-button-outlined">
            <span className="p-button-label">{t('landing.tryFree')}</span>
          </Link>
        </div>
      </div>
      <ul className="landing-features">
        {features.map((feature) => (
          <li key={feature.icon} className="card">
            <i className={`pi ${feature.icon}`} aria-hidden="true" />
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
