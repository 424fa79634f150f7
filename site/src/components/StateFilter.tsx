/**
 * A row of toggle buttons that narrows a queue to one state (the administrators' scan and verification
 * queues): the chosen one is pressed.
 */
export function StateFilter<Value extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** The group's accessible name, e.g. "Scan state". */
  label: string;
  options: readonly (readonly [Value, string])[];
  value: Value;
  onChange: (value: Value) => void;
}) {
  return (
    <div className="site-form-actions" role="group" aria-label={label}>
      {options.map(([option, text]) => (
        <button
          key={option || 'all'}
          type="button"
          className={option === value ? 'mp-button' : 'site-button-secondary'}
          aria-pressed={option === value}
          onClick={() => onChange(option)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
