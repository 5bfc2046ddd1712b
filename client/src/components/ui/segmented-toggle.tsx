import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './segmented-toggle.css';

export interface SegmentedOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
}

export interface SegmentedToggleProps<T extends string> {
  /** Names the group for screen readers and, unless hidden, on screen. */
  label: string;
  hideLabel?: boolean;
  options: readonly SegmentedOption<T>[];
  /** The one chosen value. */
  value: NoInfer<T>;
  onChange(value: NoInfer<T>): void;
  size?: 'sm' | 'md' | 'lg';
  disabled?: boolean;
  className?: string;
}

/**
 * A row of segments with exactly one chosen (spec §2 shared pieces). Underneath it is a radio group:
 * only the chosen segment is in the tab order and the arrow keys move the choice.
 */
export function SegmentedToggle<T extends string>({ label, hideLabel = false, options, value, onChange, size = 'md', disabled = false, className }: SegmentedToggleProps<T>) {
  const labelId = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const enabled = options.map((option) => !disabled && !option.disabled);
  const chosen = options.findIndex((option) => option.value === value);
  // If the value matches no option, the first usable segment takes the tab stop.
  const tabStop = chosen >= 0 && enabled[chosen] ? chosen : enabled.indexOf(true);

  const choose = (index: number) => {
    const option = options[index];
    if (!option || !enabled[index]) return;
    refs.current[index]?.focus();
    if (option.value !== value) onChange(option.value);
  };

  const step = (from: number, direction: 1 | -1) => {
    for (let offset = 1; offset <= options.length; offset += 1) {
      const index = (from + direction * offset + options.length * offset) % options.length;
      if (enabled[index]) return index;
    }
    return -1;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next: number;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = step(index, 1);
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = step(index, -1);
    else if (event.key === 'Home') next = enabled.indexOf(true);
    else if (event.key === 'End') next = enabled.lastIndexOf(true);
    else return;
    event.preventDefault();
    if (next >= 0) choose(next);
  };

  const classes = ['segmented', `segmented--${size}`, disabled ? 'segmented--disabled' : '', className].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <span id={labelId} className={hideLabel ? 'visually-hidden' : 'segmented__label'}>
        {label}
      </span>
      <div role="radiogroup" aria-labelledby={labelId} aria-disabled={disabled || undefined} className="segmented__track">
        {options.map((option, index) => {
          const checked = option.value === value;
          return (
            <button
              key={option.value}
              ref={(element) => {
                refs.current[index] = element;
              }}
              type="button"
              role="radio"
              aria-checked={checked}
              disabled={!enabled[index]}
              tabIndex={index === tabStop ? 0 : -1}
              className={['segmented__option', checked ? 'segmented__option--checked' : ''].filter(Boolean).join(' ')}
              onClick={() => choose(index)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {option.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}
