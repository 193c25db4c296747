/**
 * Writes python/tests/golden/long_runs.json: the app's model inputs for candidates with very long runs of
 * one character class, where tokenization stops at maxLen (src/engine/data/tokenize/boundedBpe.ts). Python's
 * eorm.bpe.encode_bounded must give the same ids (tests/test_bounded_tokens.py); the app's test checks
 * them too (src/engine/data/tokenize/boundedBpe.test.ts). Regenerate after changing that rule:
 *   node python/scripts/make_long_runs_golden.mjs
 */
import { writeFileSync } from 'node:fs';
import { tokenizeChunk } from '../../src/engine/data/tokenize/tokenize.ts';
import { GPT2_EOT } from '../../src/engine/data/tokenize/gpt2.ts';

/** text = prefix + unit repeated `count` times + suffix (kept short in the file). */
interface Text {
  prefix: string;
  unit: string;
  count: number;
  suffix: string;
}
const run = (unit: string, count: number, prefix = 'A: ', suffix = ' 18'): Text => ({ prefix, unit, count, suffix });
const plain = (s: string): Text => ({ prefix: s, unit: '', count: 0, suffix: '' });

const cases: Array<{ name: string; question: Text; answer: Text; maxLen: number }> = [
  { name: '1 MB of dots', question: plain('What is 2+3?'), answer: run('.', 1_000_000), maxLen: 4096 },
  { name: '1 MB of spaces', question: plain('What is 2+3?'), answer: run(' ', 1_000_000), maxLen: 4096 },
  { name: '1 MB of one letter', question: plain('What is 2+3?'), answer: run('a', 1_000_000), maxLen: 4096 },
  { name: '300,000 dots (the issue)', question: plain('What is 2+3?'), answer: run('.', 300_000), maxLen: 512 },
  { name: '20,000 dashes, before the cap (exact)', question: plain('Q'), answer: run('-', 20_000), maxLen: 512 },
  { name: '20,000 dots, small maxLen (the same ids as at 4096, cut to 64)', question: plain('Q'), answer: run('.', 20_000), maxLen: 64 },
  { name: '10,000 é, a 2-byte letter cut across slices', question: plain('Q'), answer: run('é', 10_000), maxLen: 128 },
  { name: '5,000 中 (3 bytes each)', question: plain('Q'), answer: run('中', 5_000), maxLen: 512 },
  { name: '10,000 newlines', question: plain('Q'), answer: run('\n', 10_000, 'x', 'y'), maxLen: 512 },
  { name: 'mixed punctuation, the cap inside it', question: plain('Q'), answer: run('.,;:!?-=*#', 1_000), maxLen: 512 },
  { name: 'two letters alternating', question: plain('Q'), answer: run('ab', 5_000), maxLen: 512 },
  { name: 'a question of 50,000 marks', question: run('!', 50_000, 'Q ', '?'), answer: plain('A: 18'), maxLen: 256 },
];

const expand = (t: Text) => t.prefix + t.unit.repeat(t.count) + t.suffix;
const out = cases.map((c) => {
  const chunk = tokenizeChunk({
    maxLen: c.maxLen,
    clsId: GPT2_EOT,
    sepId: GPT2_EOT,
    questions: [expand(c.question)],
    groupSizes: [1],
    genTexts: [expand(c.answer)],
  });
  return { ...c, ids: Array.from(chunk.tokens), truncated: chunk.truncated };
});
writeFileSync(process.argv[2], `${JSON.stringify({ cases: out })}\n`);
