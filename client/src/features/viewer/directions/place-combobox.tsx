/**
 * A place picker for the directions: a text field that searches the map's locations like the
 * directory does (accents and case do not matter), in the ARIA combobox pattern: the list
 * opens as one types (or with Alt+Down / Down), Up and Down move through it
 * (aria-activedescendant: the focus stays in the field), Enter picks, Esc closes the list, and
 * leaving the field puts back the picked place's name.
 */
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Group, Location } from '../../../components/map/types';
import { useTranslator } from '../../../i18n/i18n-context';
import { fold, matchesFolded, searchTextOf } from '../../../utils/location-search';

const MAX_OPTIONS = 50;

export interface PlaceComboboxProps {
  label: string;
  placeholder: string;
  /** The places to choose from (sorted). */
  locations: readonly Location[];
  groupsById: ReadonlyMap<string, Group>;
  layerNames: ReadonlyMap<string, string> | null;
  value: Location | null;
  onChange: (id: string | null) => void;
  /** A dot in the start's or the destination's colour. */
  marker: 'from' | 'to';
  inputRef?: React.Ref<HTMLInputElement>;
}

export function PlaceCombobox({ label, placeholder, locations, groupsById, layerNames, value, onChange, marker, inputRef }: PlaceComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const shownText = text ?? value?.title ?? '';
  const { locale } = useTranslator();
  // An option's groups listed as the language lists ("Food, Fashion", "食品、ファッション").
  const groupList = useMemo(() => new Intl.ListFormat(locale, { type: 'conjunction', style: 'narrow' }), [locale]);

  const options = useMemo(() => {
    const query = fold((text ?? '').trim());
    const found = query === '' ? locations : locations.filter((location) => matchesFolded(searchTextOf(location, groupsById), query));
    return found.slice(0, MAX_OPTIONS);
  }, [text, locations, groupsById]);
  const activeIndex = Math.min(active, options.length - 1);
  const expanded = open && options.length > 0;

  const pick = (location: Location) => {
    onChange(location.id);
    setText(null);
    setOpen(false);
  };
  const moveTo = (index: number) => {
    setActive(index);
    listRef.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView?.({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!expanded) {
          setOpen(true);
          setActive(0);
        } else if (!event.altKey) moveTo(Math.min(options.length - 1, activeIndex + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (expanded) moveTo(Math.max(0, activeIndex - 1));
        break;
      case 'Enter':
        if (expanded && options[activeIndex]) {
          event.preventDefault();
          pick(options[activeIndex]);
        }
        break;
      case 'Escape':
        if (expanded) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        } else if (text !== null) {
          event.preventDefault();
          event.stopPropagation();
          setText(null);
        }
        break;
      default:
    }
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  return (
    <div className={`mf-place mf-place--${marker}`}>
      <label className="mf-place__label" htmlFor={`${id}-input`}>
        {label}
      </label>
      <span className="mf-place__dot" aria-hidden="true" />
      <input
        ref={inputRef}
        id={`${id}-input`}
        className="mf-place__input"
        type="text"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && options[activeIndex] ? optionId(activeIndex) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={shownText}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
          if (event.target.value === '') onChange(null);
        }}
        onFocus={(event) => event.currentTarget.select()}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setText(null);
        }}
      />
      <ul ref={listRef} id={listId} className="mf-place__list" role="listbox" aria-label={label} hidden={!expanded}>
        {expanded
          ? options.map((location, index) => {
              const groups = groupList.format(location.groups.flatMap((group) => groupsById.get(group)?.name || []));
              const detail = [groups, layerNames?.get(location.layer)].filter(Boolean).join(' · ');
              return (
                <li
                  key={location.id}
                  id={optionId(index)}
                  data-index={index}
                  role="option"
                  aria-selected={index === activeIndex}
                  className="mf-place__option"
                  // Picked on pointer down: the field's blur (which closes the list) comes after.
                  onPointerDown={(event) => {
                    event.preventDefault();
                    pick(location);
                  }}
                  onMouseMove={() => setActive(index)}
                >
                  <span className="mf-place__option-title">{location.title}</span>
                  {detail ? <span className="mf-place__option-detail">{detail}</span> : null}
                </li>
              );
            })
          : null}
      </ul>
    </div>
  );
}
