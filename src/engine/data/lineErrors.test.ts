import { describe, expect, it } from 'vitest';
import { countErrorsByKind, formatLineErrors, lineErrorMessage } from './lineErrors.ts';
import type { LineError } from './types.ts';

const errors: LineError[] = [
  { line: 3, field: '(line)', kind: 'invalid_json', reason: 'invalid JSON: Unexpected end of JSON input' },
  { line: 17, field: 'label', kind: 'bad_label', reason: 'expected 0, 1, true or false, got "yes"' },
];

describe('line errors', () => {
  it('formats one message per error', () => {
    expect(lineErrorMessage(errors[1])).toBe('line 17, field "label": expected 0, 1, true or false, got "yes"');
    expect(lineErrorMessage(errors[0])).toBe('line 3, (line): invalid JSON: Unexpected end of JSON input');
  });

  it('counts by kind, listing every kind', () => {
    expect(countErrorsByKind(errors)).toEqual({
      invalid_json: 1,
      not_object: 0,
      missing_field: 0,
      wrong_type: 0,
      empty_question: 0,
      bad_label: 1,
      line_too_long: 0,
      conflicting_question: 0,
      request_failed: 0,
    });
  });

  it('writes the full list as text, CSV (quoted) and JSONL', () => {
    expect(formatLineErrors(errors, 'text')).toBe(`${lineErrorMessage(errors[0])}\n${lineErrorMessage(errors[1])}\n`);
    expect(formatLineErrors(errors, 'csv')).toBe(
      'line,field,kind,reason\r\n' +
        '3,(line),invalid_json,invalid JSON: Unexpected end of JSON input\r\n' +
        '17,label,bad_label,"expected 0, 1, true or false, got ""yes"""\r\n',
    );
    const jsonl = formatLineErrors(errors, 'jsonl')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(jsonl).toEqual(errors);
    expect(formatLineErrors([], 'text')).toBe('');
  });
});
