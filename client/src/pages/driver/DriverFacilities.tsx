import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FacilityBadge } from '../../shared/facilities/FacilityBadge.tsx';
import { FacilityTagForm } from '../../shared/facilities/FacilityTagForm.tsx';
import { facilitiesApi, type TourFacility } from '../../shared/facilities/facilities.api.ts';
import '../../shared/facilities/facilities.css';

type Stop = { id: string; name: string; departed: boolean };

/**
 * The facilities of the driver's tour: each stop's median time on site and a link to its page;
 * once the truck has left a stop, the form to tag it (GET tours/{id}/facilities).
 */
export function DriverFacilities({ tourId, stops }: { tourId: string; stops: readonly Stop[] }) {
  const { t } = useTranslation();
  const [facilities, setFacilities] = useState<TourFacility[] | null>(null);
  const departed = stops.filter((stop) => stop.departed).length;

  // Fetched again when a stop is left: its visit now counts.
  useEffect(() => {
    const controller = new AbortController();
    facilitiesApi.ofTour(tourId, controller.signal).then(setFacilities, () => {
      if (!controller.signal.aborted) setFacilities([]);
    });
    return () => controller.abort();
  }, [tourId, departed]);

  if (!facilities || facilities.length === 0) return null;
  const byStop = new Map(facilities.map((item) => [item.stopId, item]));
  const tagged = new Set<string>();
  return (
    <section className="card driver-card" aria-labelledby="driver-facilities">
      <h2 id="driver-facilities">{t('facilities.tourTitle')}</h2>
      <ul className="facility-replies">
        {stops.map((stop) => {
          const item = byStop.get(stop.id);
          if (!item) return null;
          // A facility visited twice on one tour is tagged once.
          const canTag = stop.departed && !tagged.has(item.facilityId);
          if (canTag) tagged.add(item.facilityId);
          return (
            <li key={stop.id}>
              <strong>{stop.name}</strong>
              <FacilityBadge facilityId={item.facilityId} facility={item.facility} />
              {canTag && <FacilityTagForm facilityId={item.facilityId} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
