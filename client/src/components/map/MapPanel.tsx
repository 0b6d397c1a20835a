import { Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
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
 * The lazily loaded map with a placeholder the same size until the page has painted and while the
 * map loads. Every screen uses this one: pass markers, a trail and a view (see `MapViewProps`).
 */
export function MapPanel(props: MapViewProps) {
  const painted = usePagePainted();
  const height = props.height ?? 320;
  const placeholder = <div className={`map-view map-placeholder${props.className ? ` ${props.className}` : ''}`} style={{ height }} aria-hidden="true" />;
  if (!painted) return placeholder;
  return (
    <MapBoundary fallback={placeholder}>
      <Suspense fallback={placeholder}>
        <LazyMapView {...props} />
      </Suspense>
    </MapBoundary>
  );
}
