import './divider.css';

export interface DividerProps {
  /** Text centred on the rule, such as 'or'. */
  label?: string;
  className?: string;
}

/** A horizontal rule, optionally with a label in its middle. */
export function Divider({ label, className }: DividerProps) {
  if (!label) return <hr className={['divider', className].filter(Boolean).join(' ')} />;
  return (
    <div role="separator" aria-orientation="horizontal" aria-label={label} className={['divider', 'divider--labelled', className].filter(Boolean).join(' ')}>
      <span className="divider__label" aria-hidden="true">
        {label}
      </span>
    </div>
  );
}
