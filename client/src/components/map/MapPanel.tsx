import { Button } from 'primereact/button';
import { Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapViewProps } from './mapTypes.ts';

/** OpenLayers (about 130 KB gzip) loads only when a map is on screen. */
const LazyMapView = lazy(() => import('./MapView.tsx'));

/**
 * True once the page around the map has painted. OpenLayers is then requested: the page's own code,
 * texts and data come first, and the map fills its placeholder a moment later.
 */
function usePagePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // An animation frame runs just before the next paint; a task queued from it runs after that paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** A map that cannot draw (no canvas, say) leaves its text beside it to speak: it never breaks the page. */
class MapBoundary extends Component<
  { children: ReactNode; fallback: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * The lazily loaded map with a placeholder the same size until the page has painted and while the
 * map loads. Every screen uses this one: pass markers, a trail and a view (see `MapViewProps`).
 */
export type MapPanelProps = MapViewProps & {
  /**
   * A map beside a page's main content (a list, say) rather than its subject: it starts closed behind
   * a "Show the map" button, and OpenLayers (130 KB on the wire) loads when it is opened. The choice
   * is remembered in this browser under this key.
   */
  openable?: string;
};

const openedKey = (key: string) => `map-open:${key}`;
function rememberedOpen(key: string | undefined): boolean {
  if (!key) return true;
  try {
    return window.localStorage.getItem(openedKey(key)) === '1';
  } catch {
    return false;
  }
}

export function MapPanel({ openable, ...props }: MapPanelProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => rememberedOpen(openable));
  const choose = (next: boolean) => {
    setOpen(next);
    try {
      if (openable) window.localStorage.setItem(openedKey(openable), next ? '1' : '0');
    } catch {
      // storage disabled: the choice lasts as long as the page
    }
  };
  if (!open) {
    return (
      <div className={`map-view map-closed${props.className ? ` ${props.className}` : ''}`}>
        <Button
          type="button"
          icon="pi pi-map"
          label={t('mapPanel.show')}
          aria-label={`${t('mapPanel.show')}: ${props.ariaLabel}`}
          outlined
          onClick={() => choose(true)}
        />
      </div>
    );
  }
  // A map that is the page's subject is the map alone, as the page's layout sizes it.
  if (!openable) return <LoadedMap {...props} />;
  return (
    <div className="map-panel">
      <LoadedMap {...props} />
      <Button
        type="button"
        className="map-hide"
        icon="pi pi-times"
        label={t('mapPanel.hide')}
        text
        size="small"
        onClick={() => choose(false)}
      />
    </div>
  );
}

function LoadedMap(props: MapViewProps) {
  const painted = usePagePainted();
  const height = props.height ?? 320;
  const placeholder = (
    <div
      className={`map-view map-placeholder${props.className ? ` ${props.className}` : ''}`}
      style={{ height }}
      aria-hidden="true"
    />
  );
  if (!painted) return placeholder;
  return (
    <MapBoundary fallback={placeholder}>
      <Suspense fallback={placeholder}>
        <LazyMapView {...props} />
      </Suspense>
    </MapBoundary>
  );
}
