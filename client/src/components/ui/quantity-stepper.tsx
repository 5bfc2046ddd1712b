import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { MAX_QUANTITY, MIN_QUANTITY } from '../../../../events/billing-plans';
import './quantity-stepper.css';

export interface QuantityStepperProps {
  /** Names the field, e.g. 'Number of maps'; the buttons are named after it. */
  label: string;
  hideLabel?: boolean;
  /** The last valid quantity. */
  value: number;
  onChange(value: number): void;
  /** Defaults to the subscription range (spec §5, §9): 1 to 1000. */
  min?: number;
  max?: number;
  disabled?: boolean;
  size?: 'sm' | 'md';
  className?: string;
}

/** The whole number the text holds, or null for anything else ('', '2.5', '1e3', 'ten'). */
export function parseQuantity(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const quantity = Number(trimmed);
  return Number.isSafeInteger(quantity) && quantity >= min && quantity <= max ? quantity : null;
}

/**
 * A quantity with minus and plus buttons (spec §5): a whole number from 1 to 1000. Valid typing
 * counts at once (so totals beside it follow live); if the text is out of range or not a number
 * when the field is left, it reverts to the value it had before this edit began. Minus
 * is disabled at the minimum and plus at the maximum. The input is a spinbutton, so the arrow
 * keys, Page Up/Down, Home and End work as screen-reader users expect.
 */
export function QuantityStepper({ label, hideLabel = false, value, onChange, min = MIN_QUANTITY, max = MAX_QUANTITY, disabled = false, size = 'md', className }: QuantityStepperProps) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  const [shown, setShown] = useState(value);
  // The value when typing began: typing '1001' passes through 1, 10 and 100 on the way, and a
  // revert must not land on those.
  const beforeEdit = useRef<number | null>(null);
  // A new value from the parent (a button, or another control) replaces whatever was typed.
  if (value !== shown) {
    setShown(value);
    setDraft(String(value));
  }

  const set = (next: number) => {
    beforeEdit.current = null;
    const clamped = Math.min(max, Math.max(min, next));
    setDraft(String(clamped));
    if (clamped !== value) onChange(clamped);
  };

  const onType = (text: string) => {
    if (beforeEdit.current === null) beforeEdit.current = value;
    setDraft(text);
    const parsed = parseQuantity(text, min, max);
    if (parsed !== null && parsed !== value) onChange(parsed);
  };

  const onBlur = () => {
    const previous = beforeEdit.current ?? value;
    beforeEdit.current = null;
    if (parseQuantity(draft, min, max) === null) {
      setDraft(String(previous));
      if (previous !== value) onChange(previous);
    } else {
      // Normalise what was typed ('007' shows as '7').
      setDraft(String(value));
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const steps: Record<string, number> = { ArrowUp: 1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    if (event.key in steps) set(value + (steps[event.key] ?? 0));
    else if (event.key === 'Home') set(min);
    else if (event.key === 'End') set(max);
    else return;
    event.preventDefault();
  };

  const classes = ['quantity-stepper', `quantity-stepper--${size}`, className].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : 'quantity-stepper__label'}>
        {label}
      </label>
      <div className="quantity-stepper__control">
        <button
          type="button"
          className="quantity-stepper__button"
          aria-label={`Decrease ${label.toLowerCase()}`}
          aria-controls={id}
          disabled={disabled || value <= min}
          onClick={() => set(value - 1)}
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M5 10h10" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <input
          id={id}
          className="quantity-stepper__input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          role="spinbutton"
          aria-valuenow={value}
          aria-valuemin={min}
          aria-valuemax={max}
          disabled={disabled}
          value={draft}
          onChange={(event) => onType(event.target.value)}
          onBlur={onBlur}
          onKeyDown={onKeyDown}
        />
        <button
          type="button"
          className="quantity-stepper__button"
          aria-label={`Increase ${label.toLowerCase()}`}
          aria-controls={id}
          disabled={disabled || value >= max}
          onClick={() => set(value + 1)}
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M5 10h10M10 5v10" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
    </div>
  );
}
