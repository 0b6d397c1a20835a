import { InputText } from 'primereact/inputtext';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadsApi, type Place } from '../../shared/loads/loads.api.ts';

interface Props {
  id?: string;
  label: string;
  value: string;
  /** The text changed by typing: the place is no longer a picked one. */
  onType: (text: string) => void;
  onPick: (place: Place) => void;
  error?: string | null;
  required?: boolean;
  placeholder?: string;
  /** Show the gazetteer's attribution line under the field (GeoNames, CC BY 4.0). */
  attribution?: boolean;
}

const DEBOUNCE_MS = 250;

/**
 * A place search over `GET /api/places/autocomplete`: a combobox with its list of US towns and ZIP
 * codes, 'No results.' when nothing matches, keyboard operable (arrows, Enter, Escape).
 */
export function PlaceSearch({
  id: givenId,
  label,
  value,
  onType,
  onPick,
  error,
  required,
  placeholder,
  attribution = true,
}: Props) {
  const { t } = useTranslation();
  const ownId = useId();
  const id = givenId ?? ownId;
  const [query, setQuery] = useState<string | null>(null);
  const [results, setResults] = useState<Place[] | null>(null);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const blurTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (query === null) return;
    const text = query.trim();
    if (text.length < 2) {
      setResults(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      loadsApi
        .places(text, controller.signal)
        .then((places) => {
          setResults(places);
          setActive(0);
          setOpen(true);
        })
        .catch(() => {
          if (!controller.signal.aborted) setResults([]);
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const pick = (place: Place) => {
    onPick(place);
    setOpen(false);
    setQuery(null);
    setResults(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open || !results?.length) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => Math.min(results.length - 1, index + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(0, index - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      pick(results[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const describedBy =
    [error ? `${id}-error` : null, attribution ? `${id}-attribution` : null]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div className="form-field place-search">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <span className="p-input-icon-left place-search-input">
        <i className="pi pi-map-marker" aria-hidden="true" />
        <InputText
          id={id}
          role="combobox"
          aria-expanded={open && results !== null}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && results?.length ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          invalid={Boolean(error)}
          autoComplete="off"
          value={value}
          placeholder={placeholder ?? t('marketplace.place.placeholder')}
          onChange={(event) => {
            onType(event.target.value);
            setQuery(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => results && setOpen(true)}
          onBlur={() => {
            blurTimer.current = setTimeout(() => setOpen(false), 150);
          }}
        />
      </span>
      {open && results !== null && (
        <ul id={listId} role="listbox" className="place-search-list" aria-label={label}>
          {results.length === 0 ? (
            <li
              className="place-search-empty"
              role="option"
              aria-selected="false"
              aria-disabled="true"
            >
              {t('marketplace.place.noResults')}
            </li>
          ) : (
            results.map((place, index) => (
              <li
                key={place.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'is-active' : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => pick(place)}
              >
                <strong>{place.name}</strong>
                <span className="muted">{place.address}</span>
              </li>
            ))
          )}
        </ul>
      )}
      {error && (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      )}
      {attribution && (
        <small id={`${id}-attribution`} className="place-attribution">
          {t('marketplace.place.attribution')}
        </small>
      )}
    </div>
  );
}
