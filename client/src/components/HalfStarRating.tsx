import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../domain/catalog.ts';

interface Props {
  value: number | null;
  onChange?: (value: number) => void;
  readOnly?: boolean;
  label: string;
  stars?: number;
}

/** A star rating in half-star steps (0.5 to 5); operable with the arrow keys. */
export function HalfStarRating({
  value,
  onChange,
  readOnly = false,
  label,
  stars = limits.ratingMax,
}: Props) {
  const { t } = useTranslation();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value ?? 0;
  const step = limits.ratingStep;
  const set = (next: number) => onChange?.(Math.min(stars, Math.max(limits.ratingMin, next)));

  const onKeyDown = (event: KeyboardEvent) => {
    if (readOnly) return;
    const rtl = document.documentElement.dir === 'rtl';
    const up = ['ArrowUp', rtl ? 'ArrowLeft' : 'ArrowRight'];
    const down = ['ArrowDown', rtl ? 'ArrowRight' : 'ArrowLeft'];
    if (up.includes(event.key)) set((value ?? 0) + step);
    else if (down.includes(event.key)) set((value ?? step) - step);
    else if (event.key === 'Home') set(limits.ratingMin);
    else if (event.key === 'End') set(stars);
    else return;
    event.preventDefault();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a slider (an image when read-only), its role chosen below
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is img or slider, both named by aria-label
    <span
      className={`half-star-rating${readOnly ? ' is-readonly' : ''}`}
      role={readOnly ? 'img' : 'slider'}
      aria-label={
        readOnly
          ? `${label}: ${t('rating.value', { value: (value ?? 0).toFixed(1), max: stars })}`
          : label
      }
      aria-valuemin={readOnly ? undefined : limits.ratingMin}
      aria-valuemax={readOnly ? undefined : stars}
      aria-valuenow={readOnly ? undefined : (value ?? 0)}
      aria-valuetext={
        readOnly ? undefined : t('rating.value', { value: (value ?? 0).toFixed(1), max: stars })
      }
      tabIndex={readOnly ? undefined : 0}
      onKeyDown={onKeyDown}
      onMouseLeave={() => setHover(null)}
    >
      {Array.from({ length: stars }, (_, index) => {
        const fill =
          shown >= index + 1
            ? 'pi-star-fill'
            : shown >= index + 0.5
              ? 'pi-star-half-fill'
              : 'pi-star';
        return (
          <span key={index} className="half-star">
            <i className={`pi ${fill} flip-rtl`} aria-hidden="true" />
            {!readOnly &&
              [0.5, 1].map((part) => (
                <span
                  key={part}
                  className={`half-star-hit half-star-hit-${part === 0.5 ? 'start' : 'end'}`}
                  onMouseEnter={() => setHover(index + part)}
                  onClick={() => set(index + part)}
                  aria-hidden="true"
                />
              ))}
          </span>
        );
      })}
    </span>
  );
}
