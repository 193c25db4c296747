import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as r50k from 'gpt-tokenizer/encoding/r50k_base';
import { describe, expect, it, vi } from 'vitest';
import { GPT2_EOT } from './gpt2.ts';
import { fixtureDir } from '../../testing/fixtureDir.ts';
import { encodeOrdinary, mergeChunks, tokenizeChunk, type TokenizeJob } from './tokenize.ts';

// Spy on the real encoder (same results) to count how often texts are encoded.
vi.mock('gpt-tokenizer/encoding/r50k_base', async (importOriginal) => {
  const actual = await importOriginal<typeof import('gpt-tokenizer/encoding/r50k_base')>();
  return { ...actual, encode: vi.fn(actual.encode) };
});

interface FixtureCase {
  name: string;
  text: string;
  special_tokens: 'none' | 'ordinary' | 'special';
  ids: number[];
}
interface Fixture {
  cases: FixtureCase[];
  model_inputs: Array<{ question: string; gen_text: string; ids: number[]; length: number }>;
}
// Read as text: the lone-surrogate case must reach JSON.parse as the escape "\ud800".
const fixture = JSON.parse(readFileSync(join(fixtureDir(), 'tokenizer.json'), 'utf8')) as Fixture;

const EOT_TEXT = [27, 91, 437, 1659, 5239, 91, 29];
const settings = { maxLen: 2048, clsId: GPT2_EOT, sepId: GPT2_EOT };
const job = (groups: Array<[string, string[]]>, maxLen = 2048): TokenizeJob => ({
  ...settings,
  maxLen,
  questions: groups.map((g) => g[0]),
  groupSizes: groups.map((g) => g[1].length),
  genTexts: groups.flatMap((g) => g[1]),
});
const candidate = (chunk: { tokens: Uint16Array; offsets: Uint32Array }, i: number) =>
  Array.from(chunk.tokens.subarray(chunk.offsets[i], chunk.offsets[i + 1]));

describe('encodeOrdinary against the tiktoken fixture', () => {
  const plain = fixture.cases.filter((c) => c.special_tokens !== 'special');
  it('covers the fixture (45 none/ordinary cases, 5 of them with <|endoftext|>)', () => {
    expect(plain.length).toBe(45);
    expect(plain.filter((c) => c.special_tokens === 'ordinary').length).toBe(5);
  });

  it.each(plain.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(encodeOrdinary(c.text)).toEqual(c.ids);
  });

  it('never turns user text into the special token, even at the start of a string', () => {
    for (const c of fixture.cases.filter((x) => x.special_tokens === 'special')) {
      const ordinary = fixture.cases.find((x) => x.text === c.text && x.special_tokens === 'ordinary')!;
      expect(encodeOrdinary(c.text)).toEqual(ordinary.ids);
      expect(encodeOrdinary(c.text)).not.toContain(GPT2_EOT);
    }
    expect(encodeOrdinary('<|endoftext|>')).toEqual(EOT_TEXT);
  });
});

describe('tokenizeChunk', () => {
  it('reproduces the fixture model inputs: [CLS] question [SEP] gen_text', () => {
    expect(fixture.model_inputs.length).toBe(3);
    for (const m of fixture.model_inputs) {
      // These inputs use the special separator; our separator is the inserted id, so they agree
      // only because neither text contains the literal token.
      expect(m.question.includes('<|endoftext|>') || m.gen_text.includes('<|endoftext|>')).toBe(false);
      const chunk = tokenizeChunk(job([[m.question, [m.gen_text]]]));
      expect(candidate(chunk, 0)).toEqual(m.ids);
      expect(chunk.offsets[1]).toBe(m.length);
      expect(chunk.truncated).toBe(0);
    }
  });

  it('keeps <|endoftext|> in user text as 7 ordinary tokens between the inserted CLS and SEP', () => {
    const chunk = tokenizeChunk(job([['<|endoftext|>', ['a <|endoftext|>']]]));
    expect(candidate(chunk, 0)).toEqual([GPT2_EOT, ...EOT_TEXT, GPT2_EOT, 64, 1279, 91, 437, 1659, 5239, 91, 29]);
  });

  it('uses the configured CLS and SEP ids', () => {
    const chunk = tokenizeChunk({ ...job([['Q', ['A']]]), clsId: 1, sepId: 2 });
    expect(candidate(chunk, 0)).toEqual([1, ...encodeOrdinary('Q'), 2, ...encodeOrdinary('A')]);
  });

  it('right-truncates to maxLen ids in total and counts truncated candidates', () => {
    const q = 'What is 2+3?'; // 6 tokens
    const a = 'The answer is $\\boxed{42}$.'; // 10 tokens
    const full = [GPT2_EOT, ...encodeOrdinary(q), GPT2_EOT, ...encodeOrdinary(a)];
    expect(full.length).toBe(18);
    const exact = tokenizeChunk(job([[q, [a]]], 18));
    expect(candidate(exact, 0)).toEqual(full);
    expect(exact.truncated).toBe(0);

    const cut = tokenizeChunk(job([[q, [a, 'ok', a]]], 12));
    expect(candidate(cut, 0)).toEqual(full.slice(0, 12));
    expect(candidate(cut, 1)).toEqual([GPT2_EOT, ...encodeOrdinary(q), GPT2_EOT, ...encodeOrdinary('ok')]);
    expect(cut.truncated).toBe(2);

    const tiny = tokenizeChunk(job([[q, [a]]], 2));
    expect(candidate(tiny, 0)).toEqual([GPT2_EOT, encodeOrdinary(q)[0]]);
  });

  it('encodes each question once per group, not once per candidate', () => {
    const spy = vi.mocked(r50k.encode);
    spy.mockClear();
    tokenizeChunk(
      job([
        ['Q1', ['a', 'b', 'c']],
        ['Q2', ['d', 'e']],
      ]),
    );
    expect(spy).toHaveBeenCalledTimes(2 + 5);
    expect(spy.mock.calls.filter(([text]) => text === 'Q1').length).toBe(1);
  });

  it('grows its buffer for long texts and returns exact-size buffers', () => {
    const long = 'lorem ipsum '.repeat(3000);
    const chunk = tokenizeChunk(job([['Q', [long, long]]], 100_000));
    expect(chunk.tokens.buffer.byteLength).toBe(chunk.tokens.length * 2);
    expect(candidate(chunk, 1)).toEqual([GPT2_EOT, ...encodeOrdinary('Q'), GPT2_EOT, ...encodeOrdinary(long)]);
  });

  it('rejects ids that do not fit 16 bits and inconsistent jobs', () => {
    expect(() => tokenizeChunk({ ...job([['Q', ['A']]]), clsId: 70_000 })).toThrow(/16-bit/);
    expect(() => tokenizeChunk({ ...job([['Q', ['A']]]), maxLen: 1 })).toThrow(/maxLen/);
    expect(() => tokenizeChunk({ ...job([['Q', ['A']]]), groupSizes: [2] })).toThrow(/mismatch/);
  });
});

describe('mergeChunks', () => {
  it('concatenates chunks with shifted offsets and summed truncation', () => {
    const a = tokenizeChunk(job([['Q1', ['a', 'bb']]], 4));
    const b = tokenizeChunk(job([['Q2', ['c']]], 4));
    const all = tokenizeChunk(
      job(
        [
          ['Q1', ['a', 'bb']],
          ['Q2', ['c']],
        ],
        4,
      ),
    );
    const merged = mergeChunks([a, b], 4);
    expect(merged).toEqual({ maxLen: 4, tokens: all.tokens, offsets: all.offsets, truncated: all.truncated });
  });
});
