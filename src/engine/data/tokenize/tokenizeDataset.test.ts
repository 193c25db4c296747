import { describe, expect, it } from 'vitest';
import { GPT2_EOT } from './gpt2.ts';
import { createRng } from '../../shared/rng.ts';
import { encodeOrdinary } from './tokenize.ts';
import { tokenizeDataset, trainingView } from './tokenizeDataset.ts';
import { answerTokenizeRequest, createWorkerPool, inProcessPool, type TokenizeWorker } from './tokenizePool.ts';
import type { TokenizeReply, TokenizeRequest } from './tokenizeProtocol.ts';
import { bytesStream, fileStream, readDataset, repoSamplePath } from '../testing/node.ts';
import type { Dataset } from '../types.ts';

const settings = { maxLen: 96, clsId: GPT2_EOT, sepId: GPT2_EOT };

/** An in-process stand-in for a Web Worker: structured-clones messages and replies after a random delay. */
function fakeWorker(seed: number, stats: { maxBusy: number }) {
  const rng = createRng(seed);
  const onMessage: Array<(e: { data: TokenizeReply }) => void> = [];
  const onError: Array<(e: { message?: string }) => void> = [];
  let busy = 0;
  const worker: TokenizeWorker & { fail(message: string): void; posted: number } = {
    posted: 0,
    postMessage(request: TokenizeRequest) {
      worker.posted++;
      busy++;
      stats.maxBusy = Math.max(stats.maxBusy, busy);
      const copy = structuredClone(request);
      setTimeout(() => {
        busy--;
        const { reply } = answerTokenizeRequest(copy);
        for (const l of onMessage) l({ data: structuredClone(reply) });
      }, rng.int(5));
    },
    addEventListener(type: 'message' | 'error', listener: never) {
      if (type === 'message') onMessage.push(listener);
      else onError.push(listener);
    },
    fail(message) {
      for (const l of onError) l({ message });
    },
  };
  return worker;
}

async function testDataset(): Promise<Dataset> {
  const sample = await readDataset(fileStream(repoSamplePath()));
  const extra = [
    { question: 'Edge <|endoftext|> case', gen_text: 'x <|endoftext|> y', label: 1 },
    { question: 'Edge <|endoftext|> case', gen_text: 'long '.repeat(500), label: 0 },
    { question: 'Empty answer', gen_text: '', label: 0 },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n');
  const edge = await readDataset(bytesStream(extra));
  const groups = [...sample.groups.slice(0, 150), ...edge.groups];
  return { groups, candidateCount: groups.reduce((n, g) => n + g.candidates.length, 0), report: sample.report };
}

describe('tokenizeDataset', () => {
  it('gives identical output on 1 in-process slot and on a pool of 3 workers, equal to encoding each candidate alone', async () => {
    const ds = await testDataset();
    const stats = { maxBusy: 0 };
    const workers = [1, 2, 3].map((s) => fakeWorker(s, stats));
    const one = await tokenizeDataset(ds, settings, inProcessPool());
    const three = await tokenizeDataset(ds, settings, createWorkerPool(workers), { jobsPerWorker: 5 });
    expect(three).toEqual(one);
    expect(workers.every((w) => w.posted > 0)).toBe(true);
    expect(stats.maxBusy).toBe(1);

    let c = 0;
    let truncated = 0;
    for (const g of ds.groups) {
      for (const cand of g.candidates) {
        const full = [GPT2_EOT, ...encodeOrdinary(g.question), GPT2_EOT, ...encodeOrdinary(cand.genText)];
        if (full.length > settings.maxLen) truncated++;
        expect(Array.from(one.tokens.subarray(one.offsets[c], one.offsets[c + 1]))).toEqual(full.slice(0, settings.maxLen));
        c++;
      }
    }
    expect(c).toBe(ds.candidateCount);
    expect(one.truncated).toBe(truncated);
    expect(truncated).toBeGreaterThan(0);
    expect(one.maxLen).toBe(settings.maxLen);
  });

  it('reports progress up to every candidate', async () => {
    const ds = await testDataset();
    const seen: number[] = [];
    await tokenizeDataset(ds, settings, createWorkerPool([fakeWorker(9, { maxBusy: 0 }), fakeWorker(8, { maxBusy: 0 })]), {
      onProgress: (p) => {
        expect(p.candidates).toBe(ds.candidateCount);
        seen.push(p.candidatesDone);
      },
    });
    expect(seen.length).toBe(8);
    expect(seen.at(-1)).toBe(ds.candidateCount);
  });

  it('fails when a worker reports an error or dies, instead of hanging', async () => {
    const ds = await testDataset();
    await expect(tokenizeDataset(ds, { ...settings, clsId: 1 << 20 }, createWorkerPool([fakeWorker(1, { maxBusy: 0 })]))).rejects.toThrow(/16-bit/);

    const dying = fakeWorker(2, { maxBusy: 0 });
    dying.postMessage = () => undefined; // a worker whose script never loaded: it never replies
    const pool = createWorkerPool([dying]);
    const run = tokenizeDataset(ds, settings, pool);
    dying.fail('script error');
    await expect(run).rejects.toThrow('tokenizer worker failed: script error');
    await expect(pool.run({ ...settings, questions: [], groupSizes: [], genTexts: [] })).rejects.toThrow(/script error/);
  });
});

describe('trainingView', () => {
  it('lists labels in candidate order and the group boundaries', async () => {
    const ds = await readDataset(
      bytesStream(
        [
          { question: 'A', gen_text: '1', label: 1 },
          { question: 'B', gen_text: '2', label: 0 },
          { question: 'A', gen_text: '3', label: 0 },
          { question: 'B', gen_text: '4', label: 1 },
          { question: 'B', gen_text: '5', label: 1 },
        ]
          .map((o) => JSON.stringify(o))
          .join('\n'),
      ),
    );
    const tokens = await tokenizeDataset(ds, settings, inProcessPool());
    const view = trainingView(ds, tokens);
    expect(Array.from(view.labels)).toEqual([1, 0, 0, 1, 1]);
    expect(Array.from(view.groupStart)).toEqual([0, 2, 5]);
    expect(view.tokens).toBe(tokens);
    const second = view.tokens.tokens.subarray(view.tokens.offsets[1], view.tokens.offsets[2]);
    expect(Array.from(second)).toEqual([GPT2_EOT, ...encodeOrdinary('A'), GPT2_EOT, ...encodeOrdinary('3')]);
    expect(() => trainingView({ ...ds, candidateCount: 4 }, tokens)).toThrow(/4/);
  });
});
