import type { KindInputProps } from '../kinds';

/** One number, typed as the learner likes ("12,288", "1.2e4"), with the unit beside it. */
export function NumericInput({ check, draft, onChange, promptId, idPrefix }: KindInputProps<string>) {
  const unitId = `${idPrefix}-unit`;
  return (
    <div className="check-numeric">
      <label htmlFor={`${idPrefix}-value`}>Your answer</label>
      <span className="check-value">
        <input
          id={`${idPrefix}-value`}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={check.unit ? `${promptId} ${unitId}` : promptId}
        />
        {check.unit ? (
          <span id={unitId} className="check-unit">
            {check.unit}
          </span>
        ) : null}
      </span>
    </div>
  );
}
