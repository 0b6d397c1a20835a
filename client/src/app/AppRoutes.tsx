import { useAtom, useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useRouter } from 'wouter';
import { authUserAtom } from '../state/session.ts';
import { initialPathAtom, settingsAtom } from '../state/settings.ts';
import { FullPageSpinner } from './AuthBootstrap.tsx';
import { loadAppShell } from './appShellChunk.ts';
import { BareLayout } from './BareLayout.tsx';
import { setShellPreload } from './shellPreload.ts';
import { decideRoute, usesBareLayout } from './guards.ts';
import type { RouteMatch } from './routes.ts';

/** The signed-in shell, loaded when a signed-in layout is first shown (see appShellChunk.ts). */
const AppShell = lazy(() => loadAppShell().then((module) => ({ default: module.AppShell })));
// The session check and the sign-in form ask for it early (shellPreload.ts).
setShellPreload(() => void loadAppShell().catch(() => undefined));

/** The routed page, with its document title and the chosen route transition (300 ms). */
function RoutedPage({ match, path }: { match: RouteMatch; path: string }) {
  const { t } = useTranslation();
  const { transition } = useAtomValue(settingsAtom);
  const { route, params } = match;
  const title = t(route.titleKey, { id: params.id ?? '' });

  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  const Page = route.page;
  return (
    <Suspense fallback={<FullPageSpinner label={t('common.loading')} />}>
      <div key={path} className={`route-transition route-transition-${transition}`}>
        <Page titleKey={route.titleKey} params={params} />
      </div>
    </Suspense>
  );
}

/** The guard: applies the redirect rules, then renders the page in the layout it belongs to. */
export function AppRoutes() {
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const user = useAtomValue(authUserAtom);
  const [initialPath, setInitialPath] = useAtom(initialPathAtom);
  const { parser } = useRouter();
  const decision = decideRoute(location, user, initialPath, parser);
  const decisionKey =
    decision.kind === 'redirect'
      ? `redirect:${decision.to}:${decision.remember ?? ''}`
      : `render:${location}`;

  useEffect(() => {
    if (decision.kind === 'redirect') {
      if (decision.remember) setInitialPath(decision.remember);
      navigate(decision.to, { replace: true });
    } else if (user && initialPath) {
      // The remembered path is used once: after that the root leads to the home page again.
      setInitialPath(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the decision is fully described by its key
  }, [decisionKey, user, initialPath]);

  if (decision.kind === 'redirect') return null;
  if (usesBareLayout(location, user)) {
    return (
      <BareLayout>
        <RoutedPage match={decision.match} path={location} />
      </BareLayout>
    );
  }
  return (
    <Suspense fallback={<FullPageSpinner label={t('common.loading')} />}>
      <AppShell>
        <RoutedPage match={decision.match} path={location} />
      </AppShell>
    </Suspense>
  );
}
