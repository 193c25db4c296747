import { describe, expect, it } from 'vitest';
import { longAnswers } from './longAnswers.ts';

const line = (q: string, text: string, label: number) =>
  JSON.stringify({ question: q, gen_text: text, label, question_id: q, answer: '1', gold: '1', source: 's' });

describe('longAnswers', () => {
  const text = [line('a', 'x'.repeat(10), 1), line('a', 'y'.repeat(30), 0), line('a', 'z'.repeat(5), 0), line('b', 'w'.repeat(20), 1)].join('\n');
  const out = longAnswers(text, 40)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { question_id: string; gen_text: string; label: number });

  it('keeps every candidate, its question, its label and its own answer first', () => {
    expect(out.map((c) => [c.question_id, c.label])).toEqual([
      ['a', 1],
      ['a', 0],
      ['a', 0],
      ['b', 1],
    ]);
    expect(out.map((c) => c.gen_text.split('\n\n')[0])).toEqual(['x'.repeat(10), 'y'.repeat(30), 'z'.repeat(5), 'w'.repeat(20)]);
  });

  it("joins the group's next answers, wrapping round, until the text is long enough", () => {
    expect(out[0].gen_text).toBe(`${'x'.repeat(10)}\n\n${'y'.repeat(30)}`);
    expect(out[2].gen_text).toBe(`${'z'.repeat(5)}\n\n${'x'.repeat(10)}\n\n${'y'.repeat(30)}`);
    // A group of one has nothing else to join, however short.
    expect(out[3].gen_text).toBe('w'.repeat(20));
  });
});
