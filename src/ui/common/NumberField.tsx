import { useId, useState } from 'react';
import { parseNumber, type NumberRule } from '../../state/settingsLogic.ts';

interface Props {
  label: string;
  value: number;
  onChange(value: number): void;
  rule: NumberRule;
  testId?: string;
  hint?: string;
  disabled?: boolean;
}

/**
 * A text input for one number. It keeps the typed text (so "1e-" or "" can be on the way to a
 * valid value) and only reports numbers the rule accepts; a value changed from outside (a preset)
 * replaces the text.
 */
export function NumberField({ label, value, onChange, rule, testId, hint, disabled }: Props) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    // Adjusting state during render (React's documented pattern) avoids a flash of the old text.
    setShown(value);
    if (parseNumber(text, rule) !== value) setText(String(value));
  }
  const invalid = parseNumber(text, rule) === null;
  return (
    <div className="field" title={hint}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        data-testid={testId}
        value={text}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          setText(e.target.value);
          const x = parseNumber(e.target.value, rule);
          if (x !== null && x !== value) {
            setShown(x);
            onChange(x);
          }
        }}
      />
    </div>
  );
}
