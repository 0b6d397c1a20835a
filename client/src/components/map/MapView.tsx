import 'ol/ol.css';
import OlMap from 'ol/Map.js';
import View from 'ol/View.js';
import Feature from 'ol/Feature.js';
import { defaults as defaultControls } from 'ol/control/defaults.js';
import { boundingExtent, isEmpty } from 'ol/extent.js';
import TopoJSON from 'ol/format/TopoJSON.js';
import LineString from 'ol/geom/LineString.js';
import Point from 'ol/geom/Point.js';
import TileLayer from 'ol/layer/Tile.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat } from 'ol/proj.js';
import VectorSource from 'ol/source/Vector.js';
import XYZ from 'ol/source/XYZ.js';
import CircleStyle from 'ol/style/Circle.js';
import Fill from 'ol/style/Fill.js';
import RegularShape from 'ol/style/RegularShape.js';
import Stroke from 'ol/style/Stroke.js';
import Style from 'ol/style/Style.js';
import Text from 'ol/style/Text.js';
import { use, useEffect, useRef } from 'react';
// us-atlas's states, simplified for this map by scripts/statesOutline.mjs (12 KB on the wire instead of 33 KB).
import statesTopology from './states.topo.json' with { type: 'json' };
import { mapSettings } from './mapSettings.ts';
import {
  DEFAULT_MAP_CENTER,
  DEFAULT_ZOOM,
  type LatLon,
  type MapMarker,
  type MapViewProps,
} from './mapTypes.ts';

const toMap = (point: LatLon) => fromLonLat([point.longitude, point.latitude]);

/** The app's primary colour (the customizer may change it), read when the map draws. */
const primaryColor = (element: Element | null): string =>
  (element ? getComputedStyle(element).getPropertyValue('--app-primary').trim() : '') || '#f97316';

/** `#rrggbb` (or `#rgb`) with an opacity, as canvas understands it; other colours as they are. */
const withAlpha = (color: string, alpha: number): string => {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return color;
  const full =
    hex.length === 3
      ? hex
          .split('')
          .map((digit) => digit + digit)
          .join('')
      : hex;
  const [red, green, blue] = [0, 2, 4].map((start) => parseInt(full.slice(start, start + 2), 16));
  return `rgba(${red}, ${green}, ${blue}, ${alpha.toFixed(2)})`;
};

const KIND_COLORS = {
  pickup: '#16a34a',
  dropoff: '#dc2626',
  stop: '#6b7280',
  special: '#7c3aed',
} as const;

function markerStyle(marker: MapMarker, primary: string): Style {
  const scale = marker.highlighted ? 1.35 : 1;
  const text = marker.label
    ? new Text({
        text: marker.label,
        offsetY: -20 * scale,
        font: '600 12px system-ui, sans-serif',
        fill: new Fill({ color: '#111827' }),
        stroke: new Stroke({ color: '#ffffff', width: 3 }),
      })
    : undefined;
  if (marker.kind === 'truck') {
    // An arrow pointing where the truck heads (north when unknown).
    return new Style({
      image: new RegularShape({
        points: 3,
        radius: 11 * scale,
        rotation: ((marker.heading ?? 0) * Math.PI) / 180,
        fill: new Fill({ color: primary }),
        stroke: new Stroke({ color: '#111827', width: 1.5 }),
      }),
      text,
      zIndex: 20,
    });
  }
  const color = marker.kind === 'place' ? primary : KIND_COLORS[marker.kind];
  return new Style({
    image: new CircleStyle({
      radius: 8 * scale,
      fill: new Fill({ color }),
      stroke: new Stroke({ color: '#ffffff', width: 2 }),
    }),
    text,
    zIndex: marker.highlighted ? 15 : 10,
  });
}

/** The offline base map: the US states in muted tones, no network. */
function statesLayer(dark: boolean): VectorLayer {
  const features = new TopoJSON({ layers: ['states'] }).readFeatures(statesTopology, {
    dataProjection: 'EPSG:4326',
    featureProjection: 'EPSG:3857',
  });
  return new VectorLayer({
    source: new VectorSource({ features }),
    style: new Style({
      fill: new Fill({ color: dark ? '#1f2937' : '#eef0f3' }),
      stroke: new Stroke({ color: dark ? '#4b5563' : '#b8bec8', width: 1 }),
    }),
  });
}

/**
 * The map: the offline US states (or `tileUrl` tiles), markers and a trail. Generic: the load form,
 * the offers map and the tracking screen all draw through it. Load it lazily through `MapPanel`.
 */
export default function MapView({
  ariaLabel,
  markers = [],
  trail = [],
  center = DEFAULT_MAP_CENTER,
  zoom = DEFAULT_ZOOM,
  fit,
  maxFitZoom = 12,
  height = 320,
  className,
  onMarkerClick,
  tileUrl,
}: MapViewProps) {
  // The server's tiles (MAP_TILE_URL) unless the caller chose; the first map waits for the answer under its placeholder.
  const configured = use(mapSettings());
  const tiles = tileUrl !== undefined ? tileUrl : configured.tileUrl;
  const attribution = tileUrl !== undefined ? null : configured.attribution;
  const element = useRef<HTMLElement>(null);
  const map = useRef<OlMap | null>(null);
  const markerSource = useRef(new VectorSource());
  const trailSource = useRef(new VectorSource());
  const clickHandler = useRef(onMarkerClick);
  clickHandler.current = onMarkerClick;

  // Created once; the layers' data changes below.
  useEffect(() => {
    if (!element.current) return;
    const dark =
      document.documentElement.dataset.mode === 'dark' ||
      document.body.classList.contains('mode-dark');
    const layers = [];
    if (tiles)
      layers.push(
        new TileLayer({
          source: new XYZ({
            url: tiles,
            crossOrigin: 'anonymous',
            ...(attribution ? { attributions: attribution } : {}),
          }),
        }),
      );
    else layers.push(statesLayer(dark));
    layers.push(new VectorLayer({ source: trailSource.current }));
    layers.push(new VectorLayer({ source: markerSource.current, declutter: false }));
    const instance = new OlMap({
      target: element.current,
      layers,
      // The tiles' credit line when they come with one (the bundled states need none).
      controls: defaultControls({
        attribution: Boolean(tiles && attribution),
        attributionOptions: { collapsible: false },
        rotate: false,
      }),
      view: new View({ center: toMap(center), zoom, maxZoom: 20 }),
    });
    instance.on('singleclick', (event) => {
      instance.forEachFeatureAtPixel(event.pixel, (feature) => {
        const marker = feature.get('marker') as MapMarker | undefined;
        if (marker && clickHandler.current) {
          clickHandler.current(marker);
          return true;
        }
        return false;
      });
    });
    map.current = instance;
    return () => {
      instance.setTarget(undefined);
      map.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map is built once per tile choice
  }, [tiles, attribution]);

  // Markers, trail and view follow the props.
  const markersKey = JSON.stringify(
    markers.map((m) => [m.id, m.kind, m.latitude, m.longitude, m.label, m.heading, m.highlighted]),
  );
  const trailKey = JSON.stringify(trail.map((p) => [p.latitude, p.longitude]));
  useEffect(() => {
    const instance = map.current;
    if (!instance) return;
    const primary = primaryColor(element.current);
    markerSource.current.clear();
    markerSource.current.addFeatures(
      markers.map((marker) => {
        const feature = new Feature({
          geometry: new Point(toMap(marker)),
          marker,
          name: marker.title ?? marker.label ?? '',
        });
        feature.setStyle(markerStyle(marker, primary));
        return feature;
      }),
    );
    trailSource.current.clear();
    if (trail.length > 1) {
      // Older segments fade out: the truck's recent path reads at a glance.
      const coordinates = trail.map(toMap);
      for (let index = 1; index < coordinates.length; index++) {
        const age = index / (coordinates.length - 1);
        const segment = new Feature({
          geometry: new LineString([coordinates[index - 1], coordinates[index]]),
        });
        segment.setStyle(
          new Style({
            stroke: new Stroke({
              color: withAlpha(primary, 0.25 + 0.75 * age),
              width: 4,
              lineCap: 'round',
            }),
            zIndex: 1,
          }),
        );
        trailSource.current.addFeature(segment);
      }
    }
    const view = instance.getView();
    const points = [...markers.map(toMap), ...trail.map(toMap)];
    if ((fit ?? points.length > 0) && points.length > 0) {
      const extent = boundingExtent(points);
      if (
        points.length === 1 ||
        isEmpty(extent) ||
        (extent[0] === extent[2] && extent[1] === extent[3])
      ) {
        view.setCenter(points[0]);
        view.setZoom(maxFitZoom);
      } else {
        view.fit(extent, { padding: [48, 48, 48, 48], maxZoom: maxFitZoom, duration: 0 });
      }
    } else {
      view.setCenter(toMap(center));
      view.setZoom(zoom);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the data, not on array identity
  }, [markersKey, trailKey, center.latitude, center.longitude, zoom, fit, maxFitZoom]);

  // A container that changes size (a dialog opening, a panel folding) redraws the map.
  useEffect(() => {
    if (!element.current || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => map.current?.updateSize());
    observer.observe(element.current);
    return () => observer.disconnect();
  }, []);

  // A named region (a labelled <section>), not an image: OpenLayers puts its zoom buttons
  // (focusable, named) inside it.
  return (
    <section
      ref={element}
      className={`map-view${className ? ` ${className}` : ''}`}
      aria-label={ariaLabel}
      style={{ height }}
    />
  );
}
