import { describe, expect, it } from 'vitest';
import { parseCandidateLine } from './record.ts';

const rejectionOf = (obj: unknown) => {
  const r = parseCandidateLine(typeof obj === 'string' ? obj : JSON.stringify(obj), 17);
  if (r.ok) throw new Error('expected a rejection');
  return r.error;
};

const base = { question: 'Q?', gen_text: 'A: 1', label: 1 };

describe('parseCandidateLine', () => {
  it('accepts the documented fields and ignores unknown ones', () => {
    const r = parseCandidateLine(JSON.stringify({ ...base, question_id: 7, answer: 1.5, gold: '2', source: 'm', extra: [1] }), 1);
    expect(r).toEqual({
      ok: true,
      record: { question: 'Q?', genText: 'A: 1', label: 1, questionId: '7', answer: '1.5', gold: '2', source: 'm' },
    });
  });

  it('accepts generated_full_text, boolean labels, and null optional fields', () => {
    const r = parseCandidateLine(JSON.stringify({ question: 'Q', generated_full_text: 'T', label: false, answer: null, question_id: null }), 1);
    expect(r).toEqual({
      ok: true,
      record: { question: 'Q', genText: 'T', label: 0, questionId: null, answer: null, gold: null, source: null },
    });
    const t = parseCandidateLine(JSON.stringify({ ...base, label: true }), 1);
    expect(t.ok && t.record.label).toBe(1);
  });

  it('"label": null beside a gold answer is no label: the gold answer labels the line (issue 48, point 12)', () => {
    const r = parseCandidateLine(JSON.stringify({ question: 'Q', gen_text: 'so 18', label: null, gold: '18' }), 1);
    expect(r.ok && [r.record.label, r.record.gold]).toEqual([null, '18']);
  });

  it('groups an empty question_id by text (null id)', () => {
    const r = parseCandidateLine(JSON.stringify({ ...base, question_id: ' ' }), 1);
    expect(r.ok && r.record.questionId).toBeNull();
  });

  it.each([
    ['{"question": ', '(line)', 'invalid_json', /^invalid JSON: /],
    ['[1, 2]', '(line)', 'not_object', 'expected a JSON object, got an array'],
    ['"text"', '(line)', 'not_object', 'expected a JSON object, got "text"'],
    ['null', '(line)', 'not_object', 'expected a JSON object, got null'],
    [{ gen_text: 'x', label: 1 }, 'question', 'missing_field', 'missing'],
    [{ ...base, question: 5 }, 'question', 'wrong_type', 'expected a string, got 5'],
    [{ ...base, question: '  ' }, 'question', 'empty_question', 'empty question'],
    [{ question: 'Q', label: 1 }, 'gen_text', 'missing_field', 'missing (expected "gen_text" or "generated_full_text")'],
    [{ question: 'Q', generated_full_text: ['x'], label: 1 }, 'generated_full_text', 'wrong_type', 'expected a string, got an array'],
    [{ question: 'Q', gen_text: 'x' }, 'label', 'missing_field', 'missing'],
    [{ ...base, label: 'yes' }, 'label', 'bad_label', 'expected 0, 1, true or false, got "yes"'],
    [{ ...base, label: 2 }, 'label', 'bad_label', 'expected 0, 1, true or false, got 2'],
    // Issue 48, point 12: "label": null is no label (as in the other formats), so without gold it is missing.
    [{ question: 'Q', gen_text: 'x', label: null }, 'label', 'missing_field', 'missing'],
    [{ ...base, question_id: { a: 1 } }, 'question_id', 'wrong_type', 'expected a string or a number, got an object'],
    [{ ...base, answer: true }, 'answer', 'wrong_type', 'expected a string or a number, got true'],
    [{ ...base, source: 3 }, 'source', 'wrong_type', 'expected a string, got 3'],
  ] as const)('rejects %j with field %s, kind %s', (input, field, kind, reason) => {
    const e = rejectionOf(input);
    expect(e.line).toBe(17);
    expect(e.field).toBe(field);
    expect(e.kind).toBe(kind);
    if (typeof reason === 'string') expect(e.reason).toBe(reason);
    else expect(e.reason).toMatch(reason);
  });

  it('reads numbers as written: ids beyond 2^53 stay distinct, answers keep their digits', () => {
    const id = (raw: string) => {
      const r = parseCandidateLine(`{"question": "Q", "gen_text": "g", "label": 1, "question_id": ${raw}, "answer": ${raw}, "gold": ${raw}}`, 1);
      return r.ok ? [r.record.questionId, r.record.answer, r.record.gold] : r.error;
    };
    expect(id('12345678901234567890')).toEqual(['12345678901234567890', '12345678901234567890', '12345678901234567890']);
    expect(id('12345678901234567891')).toEqual(['12345678901234567891', '12345678901234567891', '12345678901234567891']);
    expect(id('1.50')).toEqual(['1.50', '1.50', '1.50']);
    expect(id('1e400')).toEqual(['1e400', '1e400', '1e400']);
  });

  it.each([
    ['1.0', 1],
    ['10e-1', 1],
    ['0.0', 0],
    ['-0', 0],
  ] as const)('accepts the label %s as exactly %d', (raw, label) => {
    const r = parseCandidateLine(`{"question": "Q", "gen_text": "g", "label": ${raw}}`, 1);
    expect(r.ok && r.record.label).toBe(label);
  });

  it.each([
    ['1e400', '1e400', 'expected 0, 1, true or false, got 1e400 (a number too large)'],
    ['-1e400', '-1e400', 'expected 0, 1, true or false, got -1e400 (a number too large)'],
    ['1e-400', '1e-400', 'expected 0, 1, true or false, got 1e-400 (not exactly 0: it only rounds to 0)'],
    ['0.99999999999999999', '0.99999999999999999', 'expected 0, 1, true or false, got 0.99999999999999999 (not exactly 1: it only rounds to 1)'],
    ['0.<400 zeros>1, shortened', `0.${'0'.repeat(400)}1`, `expected 0, 1, true or false, got 0.${'0'.repeat(35)}... (not exactly 0: it only rounds to 0)`],
  ])('says what was read for the label %s', (_, raw, reason) => {
    const e = rejectionOf(`{"question": "Q", "gen_text": "g", "label": ${raw}}`);
    expect([e.field, e.kind, e.reason]).toEqual(['label', 'bad_label', reason]);
  });

  it('calls an overflowing number "a number too large" in other fields too', () => {
    expect(rejectionOf('{"question": 1e400, "gen_text": "g", "label": 1}').reason).toBe('expected a string, got a number too large');
    expect(rejectionOf('{"question": "Q", "gen_text": "g", "label": 1, "source": -1e999}').reason).toBe('expected a string, got a number too large');
  });

  it('names a byte-order mark inside a line (two files joined without a newline)', () => {
    const e = rejectionOf(`{"question": "Q", "gen_text": "g", "label": 1}\uFEFF{"question": "Q"}`);
    expect(e.kind).toBe('invalid_json');
    expect(e.reason).toMatch(/a byte-order mark U\+FEFF at character 47: were two files joined without a newline between them\?\)$/);
  });

  it('keeps messages short for huge values', () => {
    const e = rejectionOf({ ...base, label: 'y'.repeat(10_000) });
    expect(e.reason.length).toBeLessThan(100);
    const j = rejectionOf(`{"question": "${'q'.repeat(100_000)}`);
    expect(j.reason.length).toBeLessThan(200);
  });
});
