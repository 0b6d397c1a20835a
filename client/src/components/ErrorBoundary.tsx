import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The page shown after a crash (specification section 8). */
export function CrashPage() {
  const { t } = useTranslation();
  return (
    <section className="page page-error" role="alert">
      <i className="pi pi-exclamation-circle page-error-icon" aria-hidden="true" />
      <h1>{t('crash.title')}</h1>
      <p>{t('crash.line1')}</p>
      <p>{t('crash.line2')}</p>
      <button
        type="button"
        className="p-button p-component"
        onClick={() => window.location.reload()}
      >
        <span className="p-button-icon p-button-icon-left pi pi-refresh" aria-hidden="true" />
        <span className="p-button-label">{t('common.reload')}</span>
      </button>
    </section>
  );
}

/** Catches a rendering crash anywhere below and shows 'Ah! Something went wrong.' instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('The page crashed', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <CrashPage /> : this.props.children;
  }
}
