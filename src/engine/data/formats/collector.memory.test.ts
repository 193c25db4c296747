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

test('a picks set held until finish() keeps one copy of a group\'s question text, not one per line', () => {
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
