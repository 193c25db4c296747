import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';
import { Collector, type RawLine } from './collector.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

// Each line parsed anew carries its own copy of the question text (as JSON.parse gives it).
const line = (n: number, question: string): RawLine => ({
  line: n,
  questionId: 'q1',
  question: question.split('').join(''),
  gold: null,
  samples: [{ genText: `answer ${n}`, label: null, answer: null, source: null }],
});

test("a picks set held until finish() keeps one copy of a group's question text, not one per line", () => {
  const question = 'How many eggs? '.repeat(700); // about 10 KB
  const lines = 2_000; // one copy each would hold about 20 MB
  const collector = new Collector();
  const before = heapAfterGc();
  for (let n = 1; n <= lines; n++) collector.line(line(n, question));
  const heldPerLine = (heapAfterGc() - before) / lines;
  // A held line's own objects and short answer are a few hundred bytes; a question copy would add 10 KB.
  expect(heldPerLine).toBeLessThan(1_000);
  const collected = collector.finish();
  expect(collected.labelled).toBe(false);
  expect(collected.groups).toHaveLength(1);
  expect(collected.groups[0].candidates).toHaveLength(lines);
});

test('candidates keep one copy of a source name and an answer their lines repeat', () => {
  const source = 'model-served-by-a-long-provider-name/'.repeat(25); // about 1 KB
  const answer = '1234567890'.repeat(100); // 1 KB
  const lines = 2_000;
  const collector = new Collector();
  const before = heapAfterGc();
  for (let n = 1; n <= lines; n++) {
    // Each parsed anew: its own copies, as JSON.parse gives them.
    collector.line({
      line: n,
      questionId: `q${n % 10}`,
      question: `question ${n % 10}`,
      gold: null,
      samples: [{ genText: `text ${n}`, label: null, answer: answer.split('').join(''), source: source.split('').join('') }],
    });
  }
  const collected = collector.finish();
  const heldPerCandidate = (heapAfterGc() - before) / lines;
  // A candidate's own objects are a few hundred bytes; a copy of the source and of the answer would add 2 KB.
  expect(heldPerCandidate).toBeLessThan(1_000);
  expect(collected.groups.flatMap((g) => g.candidates).every((c) => c.source === source && c.answer === answer)).toBe(true);
});
