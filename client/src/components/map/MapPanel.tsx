import { Component, lazy, type ReactNode, Suspense } from 'react';
import type { MapViewProps } from './mapTypes.ts';

/** OpenLayers (about 150 KB gzip) loads only when a map is on screen. */
const LazyMapView = lazy(() => import('./MapView.tsx'));

/** A map that cannot draw (no canvas, say) leaves its text beside it to speak: it never breaks the page. */
class MapBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * The lazily loaded map with a placeholder the same size while it loads. Every screen uses this
 * one: pass markers, a trail and a view (see `MapViewProps`).
 */
export function MapPanel(props: MapViewProps) {
  const height = props.height ?? 320;
  const placeholder = <div className={`map-view map-placeholder${props.className ? ` ${props.className}` : ''}`} style={{ height }} aria-hidden="true" />;
  return (
    <MapBoundary fallback={placeholder}>
      <Suspense fallback={placeholder}>
        <LazyMapView {...props} />
      </Suspense>
    </MapBoundary>
  );
}
