import { PrimeReactProvider } from 'primereact/api';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch } from 'wouter';
import { SignInPage } from '../pages/auth/SignInPage.tsx';
import { NotFoundPage } from '../pages/errors/NotFoundPage.tsx';
import { HomePage } from '../pages/home/HomePage.tsx';
import { AppTopbar } from './AppTopbar.tsx';
import { paths } from './paths.ts';
import { StatusFooter } from './StatusFooter.tsx';

/** The shell: top bar, the routed page, the status footer. The router comes from outside (tests use a memory one). */
export function App() {
  const { t } = useTranslation();
  return (
    <PrimeReactProvider>
      <div className="app-shell">
        <a href="#main" className="skip-link">
          {t('app.skipToContent')}
        </a>
        <AppTopbar />
        <main id="main" className="app-main" tabIndex={-1}>
          <Switch>
            <Route path={paths.home} component={HomePage} />
            <Route path={paths.signIn} component={SignInPage} />
            <Route path={paths.notFound} component={NotFoundPage} />
            <Route>
              <Redirect to={paths.notFound} replace />
            </Route>
          </Switch>
        </main>
        <StatusFooter />
      </div>
    </PrimeReactProvider>
  );
}
