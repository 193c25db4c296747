import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesStream, readDataset, repoSamplePath } from '../data/testing/node.ts';
import { tokenizeChunk } from '../data/tokenize/tokenize.ts';
import { inProcessPool } from '../data/tokenize/tokenizePool.ts';
import type { CandidateText, Dataset, Group } from '../data/types.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';
import { makeConfig } from '../model/config.ts';
import { initParams } from '../model/params.ts';
import { scoreDistinct } from './distinctInputs.ts';
import { RunControl } from '../train/runControl.ts';
import { type PicksRecord, picksAccuracy, tallyPicks } from './picksRecord.ts';
import { pickQuestion } from './picksRule.ts';
import { answerSlots } from '../metrics/vote.ts';
import { runPicks } from './picksRun.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ dModel: 8, nHeads: 2, nLayers: 1, maxLen: 48 });
const map: ProbabilityMap = { temperature: 0.7, platt: null, selector: null, use: 'vote' };
let dataset: Dataset;

beforeAll(async () => {
  await tf.setBackend('cpu');
  // The sample's first 11 questions (4 candidates each).
  const lines = readFileSync(repoSamplePath(), 'utf8').split('\n').slice(0, 44).join('\n');
  dataset = await readDataset(bytesStream(lines));
});

async function picks(groups: ReadonlyArray<Group<CandidateText>>, chunkQuestions: number, control?: RunControl) {
  const params = initParams(cfg, 5);
  const chunks: PicksRecord[][] = [];
  const outcome = await runPicks(groups, {
    model: { cfg, params, map },
    rule: 'weightedVote',
    pool: inProcessPool(),
    chunkQuestions,
    control,
    onChunk: (r) => void chunks.push(r),
    profile: activeProfile(),
  });
  return { outcome, chunks, records: chunks.flat() };
}

describe('runPicks', () => {
  it('without a model: nothing scored, majority vote and the generator vote learnt without labels pick from answers and sources', async () => {
    const chunks: PicksRecord[] = [];
    for (const rule of ['majority', 'generatorVoteFree'] as const) {
      const outcome = await runPicks(dataset.groups, {
        model: null,
        rule,
        pool: inProcessPool(),
        chunkQuestions: 4,
        onChunk: (r) => void chunks.push(...r),
        profile: activeProfile(),
      });
      expect(outcome).toEqual({ done: 11, total: 11, cancelled: false });
    }
    const [majority, free] = [chunks.slice(0, 11), chunks.slice(11)];
    for (const r of [...majority, ...free]) expect(r.energies).toEqual([]);
    majority.forEach((r, g) => {
      const slots = answerSlots(
        dataset.groups[g].candidates.map((c) => c.answerKey),
        new Uint8Array(4),
      );
      expect(slots.votes[slots.slot[r.index]]).toBe(Math.max(...slots.votes));
      expect(r.probability).toBe(Math.max(...slots.votes) / 4);
    });
    expect(free.every((r) => r.rule === 'generatorVoteFree')).toBe(true);
  });

  it('one record per question in input order, as scoring the whole set at once and picking gives, whatever the chunk size', async () => {
    const groups = dataset.groups;
    const ids = (() => {
      const c = tokenizeChunk({
        maxLen: cfg.maxLen,
        clsId: cfg.clsId,
        sepId: cfg.sepId,
        questions: groups.map((g) => g.question),
        groupSizes: groups.map((g) => g.candidates.length),
        genTexts: groups.flatMap((g) => g.candidates.map((x) => x.genText)),
      });
      return Array.from({ length: c.offsets.length - 1 }, (_, i) => c.tokens.subarray(c.offsets[i], c.offsets[i + 1]));
    })();
    const all = await scoreDistinct(cfg, initParams(cfg, 5), ids, { profile: activeProfile() });
    const a = await picks(groups, 3);
    const b = await picks(groups, 256);
    expect(a.chunks.map((c) => c.length)).toEqual([3, 3, 3, 2]);
    expect(b.chunks.length).toBe(1);
    expect(a.records).toEqual(b.records);
    expect(a.outcome).toEqual({ done: 11, total: 11, cancelled: false });
    let c = 0;
    a.records.forEach((r, g) => {
      const n = groups[g].candidates.length;
      const e = all.subarray(c, c + n);
      c += n;
      // The sample names its generators: the picks carry their agreement weights (the vote's figures do not read them).
      const p = pickQuestion(
        groups[g].candidates.map((x) => x.answerKey),
        e,
        map,
        'weightedVote',
      );
      expect(r).toMatchObject({
        group: g,
        question: groups[g].question,
        index: p.index,
        text: groups[g].candidates[p.index].genText,
        answer: p.answer,
        probability: p.probability,
        rule: 'weightedVote',
      });
      expect(r.energies).toEqual(Array.from(e));
      expect(r.correct).toBe(groups[g].candidates[p.index].label);
    });
    const tally = tallyPicks({ questions: 0, labelled: 0, correct: 0 }, a.records);
    expect(tally.labelled).toBe(11);
    expect(picksAccuracy(tally)).toBe(a.records.filter((r) => r.correct === 1).length / 11);
  });

  it('unlabelled candidates: picked the same, with correct null and no accuracy', async () => {
    const bare: Group<CandidateText>[] = dataset.groups.map((g) => ({
      questionId: g.questionId,
      question: g.question,
      candidates: g.candidates.map(({ line, genText, answer, answerKey, textAnswerKey, gold, source }) => ({
        line,
        genText,
        answer,
        answerKey,
        textAnswerKey,
        gold,
        source,
      })),
    }));
    const labelled = await picks(dataset.groups, 4);
    const unlabelled = await picks(bare, 4);
    expect(unlabelled.records).toEqual(labelled.records.map((r) => ({ ...r, correct: null })));
    expect(picksAccuracy(tallyPicks({ questions: 0, labelled: 0, correct: 0 }, unlabelled.records))).toBeNull();
  });

  it('cancel ends after the chunk under way; pause holds the next chunk until resumed', async () => {
    const control = new RunControl();
    const params = initParams(cfg, 5);
    const seen: number[] = [];
    let resumed = false;
    const outcome = await runPicks(dataset.groups, {
      model: { cfg, params, map },
      rule: 'majority',
      pool: inProcessPool(),
      profile: activeProfile(),
      chunkQuestions: 2,
      control,
      onChunk: (r) => {
        seen.push(r.length);
        if (seen.length === 1) {
          control.pause();
          // Resumed only after the run has stopped at the pause.
          setTimeout(() => {
            expect(seen.length).toBe(1);
            resumed = true;
            control.resume();
          }, 0);
        }
        if (seen.length === 2) control.stop();
      },
    });
    expect(resumed).toBe(true);
    expect(seen).toEqual([2, 2]);
    expect(outcome).toEqual({ done: 4, total: 11, cancelled: true });
  });
});
