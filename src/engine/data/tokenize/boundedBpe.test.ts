import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, encode } from 'gpt-tokenizer/encoding/r50k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { GPT2_EOT } from './gpt2.ts';
import { fixtureDir } from '../../testing/fixtureDir.ts';
import { createRng } from '../../shared/rng.ts';
import { tokenizeChunk } from './tokenize.ts';
import { CHUNK_BYTES, encodeBounded, mergedSoFar } from './boundedBpe.ts';

/** gpt-tokenizer's own encode, unbounded: what tiktoken gives (the fixture checks it). */
const exact = (text: string) => encode(text, { disallowedSpecial: new Set<string>() });
const MAX_LEN = 4096;
// What merging a 1 MB run may cost: the text before it and two slices of it (its first holds the space before it).
const MERGE_BOUND = 3 * CHUNK_BYTES;
const QUESTION = 'What is 2+3?';
const input = (answer: string, maxLen = MAX_LEN) => {
  const chunk = tokenizeChunk({ maxLen, clsId: GPT2_EOT, sepId: GPT2_EOT, questions: [QUESTION], groupSizes: [1], genTexts: [answer] });
  return { ids: Array.from(chunk.tokens), truncated: chunk.truncated };
};
const expected = (answer: string, maxLen = MAX_LEN) => [GPT2_EOT, ...exact(QUESTION), GPT2_EOT, ...exact(answer)].slice(0, maxLen);

const randomText = (seed: number, alphabet: string, n: number) => {
  const rng = createRng(seed);
  const chars = Array.from(alphabet);
  return Array.from({ length: n }, () => chars[rng.int(chars.length)]).join('');
};

describe('tokenizing a candidate is bounded by maxLen', () => {
  // The vocabulary tables are built once per thread, on the first long pre-token: not part of a line's cost.
  beforeAll(() => void encodeBounded(`A: ${'.'.repeat(5000)}`, 10));
  // Each took seconds to minutes (quadratic merges), or overflowed the stack (spaces).
  it.each([
    ['a punctuation mark', '.'],
    ['spaces', ' '],
    ['one letter', 'a'],
  ])('a 1 MB run of %s in an answer: at most two slices of it merged, maxLen ids, counted as cut', (_name, ch) => {
    const answer = `A: ${ch.repeat(1_000_000)} 18`;
    const before = mergedSoFar();
    const { ids, truncated } = input(answer);
    expect(mergedSoFar() - before).toBeLessThan(MERGE_BOUND);
    expect(ids.length).toBe(MAX_LEN);
    expect(truncated).toBe(1);
    // Exact up to the run; then the run's start (its pre-token takes the space before it).
    const head = expected('A:');
    expect(ids.slice(0, head.length)).toEqual(head);
    const run = decode(ids.slice(head.length));
    expect(run.length).toBeGreaterThan(MAX_LEN - head.length - 1);
    expect(run).toBe(` ${ch.repeat(run.length - 1)}`);
  });

  it('a 1 MB question with a run is bounded too, and the answer is then not read at all', () => {
    const before = mergedSoFar();
    const chunk = tokenizeChunk({
      maxLen: MAX_LEN,
      clsId: GPT2_EOT,
      sepId: GPT2_EOT,
      questions: [`Q ${'!'.repeat(1_000_000)}`],
      groupSizes: [2],
      genTexts: ['a', '.'.repeat(1_000_000)],
    });
    expect(mergedSoFar() - before).toBeLessThan(MERGE_BOUND);
    expect(chunk.offsets[1]).toBe(MAX_LEN);
    expect(chunk.offsets[2]).toBe(2 * MAX_LEN);
    expect(chunk.truncated).toBe(2);
  });

  it('300,000 spaces unbounded: no stack overflow, the exact ids', () => {
    const ids = encodeBounded(' '.repeat(300_000), Infinity);
    expect(ids.length).toBe(300_000);
    expect(new Set(ids)).toEqual(new Set(exact(' ')));
  });
});

describe('a candidate has the same ids whatever maxLen is asked (training at 4096, Rerank at maxLen + 1)', () => {
  it.each([
    ['300,000 dots', `A: ${'.'.repeat(300_000)} 18`],
    ['100,000 random marks', `A: ${randomText(6, '.,;:!?-=*#', 100_000)} 18`],
    ['20,000 é', `A: ${'é'.repeat(20_000)}`],
  ])('%s', (_name, answer) => {
    const rerank = input(answer, 4097).ids;
    expect(rerank.length).toBe(4097);
    for (const maxLen of [2, 3, 64, 513, 4095, 4096]) expect(input(answer, maxLen).ids).toEqual(rerank.slice(0, maxLen));
  });
});

describe('equal to the unbounded encoder wherever the cap does not fall inside a long run', () => {
  it('ordinary text: the fixture strings and the sample file, at every cap', () => {
    const fixture = JSON.parse(readFileSync(join(fixtureDir(), 'tokenizer.json'), 'utf8')) as { cases: Array<{ text: string }> };
    const sample = readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n').filter(Boolean).slice(0, 200);
    const texts = [...fixture.cases.map((c) => c.text), ...sample.map((l) => (JSON.parse(l) as { gen_text: string }).gen_text), sample.join('\n')];
    for (const text of texts) {
      const want = exact(text);
      expect(encodeBounded(text, Infinity)).toEqual(want);
      for (const limit of [0, 1, 7, 100, want.length - 1, want.length, want.length + 1]) {
        if (limit < 0) continue;
        const got = encodeBounded(text, limit);
        // At most `limit` ids: exact; more: more than `limit` too, exact as far as they go.
        if (want.length <= limit) expect(got).toEqual(want);
        else {
          expect(got.length).toBeGreaterThan(limit);
          expect(got).toEqual(want.slice(0, got.length));
        }
      }
    }
  });

  it.each([
    ['20,000 dots', `A: ${'.'.repeat(20_000)} 18`],
    ['6,000 newlines between words', `A: x${'\n'.repeat(6_000)}y 18`],
    ['15,000 of one letter', `A: ${'a'.repeat(15_000)} 18`],
    ['5,000 random punctuation marks', `A: ${randomText(1, '.,;:!?-=*#', 5_000)} 18`],
    ['8,000 random letters from a small alphabet', `A: ${randomText(2, 'abcde', 8_000)} 18`],
    ['3,000 random accented and CJK letters (multi-byte)', `A: ${randomText(3, 'éèàüß中文字', 3_000)} 18`],
    ['6,000 random digits', `A: ${randomText(4, '0123456789', 6_000)} 18`],
  ])('a long run that ends before the cap: %s', (_name, answer) => {
    expect(new TextEncoder().encode(answer).length).toBeGreaterThan(4096 + 10); // a long pre-token
    expect(exact(answer).length).toBeLessThan(MAX_LEN - 8);
    expect(input(answer)).toEqual({ ids: expected(answer), truncated: 0 });
    expect(encodeBounded(answer, Infinity)).toEqual(exact(answer));
  });

  it('a run that the cap falls inside, but too short to have to pass it by its own length: exact up to the cap', () => {
    // 10,000 random marks give about 7,400 ids, though they could give as few as 10,000 / 64.
    const answer = `A: ${randomText(1, '.,;:!?-=*#', 10_000)} 18`;
    expect(input(answer)).toEqual({ ids: expected(answer), truncated: 1 });
  });

  it('a long run before the cap, then ordinary text cut by the cap: exact up to the cap', () => {
    const answer = `A: ${'-'.repeat(12_000)} ${'the answer is 18. '.repeat(2_000)}`;
    expect(input(answer)).toEqual({ ids: expected(answer), truncated: 1 });
  });
});

describe('the same ids as python/ (python/tests/golden/long_runs.json, also read by tests/test_bounded_tokens.py)', () => {
  interface Text {
    prefix: string;
    unit: string;
    count: number;
    suffix: string;
  }
  const golden = JSON.parse(readFileSync('python/tests/golden/long_runs.json', 'utf8')) as {
    cases: Array<{ name: string; question: Text; answer: Text; maxLen: number; ids: number[]; truncated: number }>;
  };
  const expand = (t: Text) => t.prefix + t.unit.repeat(t.count) + t.suffix;

  it.each(golden.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const question = expand(c.question);
    const answer = expand(c.answer);
    const chunk = tokenizeChunk({ maxLen: c.maxLen, clsId: GPT2_EOT, sepId: GPT2_EOT, questions: [question], groupSizes: [1], genTexts: [answer] });
    expect({ ids: Array.from(chunk.tokens), truncated: chunk.truncated }).toEqual({ ids: c.ids, truncated: c.truncated });
    // Where nothing was cut, they are tiktoken's.
    if (c.truncated === 0) expect(c.ids).toEqual([GPT2_EOT, ...exact(question), GPT2_EOT, ...exact(answer)]);
  });
});
