/**
 * A picks run: the verifier applied to every question of a set, a chunk of questions at a time. Each
 * chunk is tokenized (the next one while this one scores), scored through the shared scoring path
 * (distinctInputs.ts → scoring.ts, with the scoring peers) and picked (picksRule.ts); its
 * records go to `onChunk` and are dropped here. Memory is bounded by two chunks, whatever the set's size.
 * Without a model nothing is tokenized or scored: majority vote and the generator-weighted vote learnt from
 * agreement (fitted once over the whole set first) pick from the answers and sources alone.
 */
import { type TokenizedChunk, type TokenizeJob, tokenizeJob } from '../data/tokenize/tokenize.ts';
import type { TokenizePool } from '../data/tokenize/tokenizePool.ts';
import type { CandidateText, Group } from '../data/types.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { scoreDistinct } from './distinctInputs.ts';
import type { BackendProfile } from '../backend/profile.ts';
import type { ScoringPeer } from './scoring.ts';
import { type PicksRecord, picksRecord } from './picksRecord.ts';
import { type CandidateGeneratorWeights, type PickRule, pickQuestion } from './picksRule.ts';
import { fitAgreementGenerators } from '../metrics/generators/generatorAgreement.ts';
import { type SourcedAnswers, candidateWeights } from '../metrics/generators/generators.ts';
import { groupFieldValues } from '../data/candidateFields.ts';

/** What a picks run needs of a run's control (train/runControl.ts's RunControl has it): pause and stop. */
export interface PauseStop {
  readonly pauseRequested: boolean;
  readonly stopRequested: boolean;
  waitWhilePaused(): Promise<void>;
}

/** Questions per chunk: 256 × 16 long answers is a few MB of ids. */
export const PICKS_CHUNK_QUESTIONS = 256;

/**
 * Activation memory of one scoring pass in a picks run, a quarter of the default: a WASM heap never
 * shrinks, and a scoring peer started for the run grows its own to what its passes take (120 MiB at the
 * default for a pass of 28 long answers × 256 tokens); the picks rate stayed the same (835–865 candidates/s).
 */
export const PICKS_PASS_BUDGET_BYTES = 64 * 1024 ** 2;

/** The model a picks run scores with. */
export interface PicksModelWeights {
  cfg: ModelConfig;
  params: ParamTensors;
  map: ProbabilityMap;
}

export interface PicksRunOptions {
  /** null: no model (majority vote and the generator-weighted vote learnt without labels need none). */
  model: PicksModelWeights | null;
  rule: PickRule;
  pool: TokenizePool;
  /** What runs where, taken once where the run starts. */
  profile: BackendProfile;
  peers?: ReadonlyArray<ScoringPeer>;
  chunkQuestions?: number;
  /** Pause (between chunks) and cancel; a cancelled run ends after the chunk under way, its records delivered. */
  control?: PauseStop;
  /** A chunk's records, in input order; the run waits for it. */
  onChunk(records: PicksRecord[]): void | Promise<void>;
}

export interface PicksOutcome {
  done: number;
  total: number;
  cancelled: boolean;
}

/** The chunk's groups as tokenize jobs, one per pool worker, each a run of whole groups. */
async function tokenizeGroups(groups: ReadonlyArray<Group<CandidateText>>, cfg: ModelConfig, pool: TokenizePool): Promise<Uint16Array[]> {
  const parts = Math.max(1, Math.min(pool.size, groups.length));
  const per = Math.ceil(groups.length / parts);
  const jobs: TokenizeJob[] = [];
  for (let s = 0; s < groups.length; s += per) {
    jobs.push(tokenizeJob(groups.slice(s, s + per), cfg));
  }
  const chunks: TokenizedChunk[] = await Promise.all(jobs.map((j) => pool.run(j)));
  return chunks.flatMap((c) => Array.from({ length: c.offsets.length - 1 }, (_, i) => c.tokens.subarray(c.offsets[i], c.offsets[i + 1])));
}

/** Each candidate's generator weights over the whole set: the model's (from its training labels) and those learnt from agreement here. */
function setGenerators(groups: ReadonlyArray<Group<CandidateText>>, map: ProbabilityMap | null): (g: number) => CandidateGeneratorWeights {
  const names: string[] = [];
  const index = new Map<string, number>();
  const sourced: SourcedAnswers[] = groups.map((g) => ({
    answers: g.candidates.map((c) => c.answerKey),
    labels: new Uint8Array(g.candidates.length),
    sources: Int32Array.from(g.candidates, (c) => {
      if (c.source === null) return -1;
      let k = index.get(c.source);
      if (k === undefined) index.set(c.source, (k = names.push(c.source) - 1));
      return k;
    }),
  }));
  const agreement = fitAgreementGenerators(sourced, names);
  const labelled = map?.generators ?? null;
  return (g) => {
    const sourceNames = groups[g].candidates.map((c) => c.source);
    return { labelled: labelled ? candidateWeights(labelled, sourceNames) : null, agreement: agreement ? candidateWeights(agreement, sourceNames) : null };
  };
}

export async function runPicks(groups: ReadonlyArray<Group<CandidateText>>, opts: PicksRunOptions): Promise<PicksOutcome> {
  const size = Math.max(1, opts.chunkQuestions ?? PICKS_CHUNK_QUESTIONS);
  const total = groups.length;
  const model = opts.model;
  const generators = setGenerators(groups, model?.map ?? null);
  const tokenize = (start: number) => (model && start < total ? tokenizeGroups(groups.slice(start, start + size), model.cfg, opts.pool) : null);
  let next = tokenize(0);
  let done = 0;
  while (done < total) {
    const start = done;
    const ids = await next;
    next = tokenize(start + size);
    const energies =
      model && ids
        ? await scoreDistinct(model.cfg, model.params, ids, { profile: opts.profile, peers: opts.peers, budgetBytes: PICKS_PASS_BUDGET_BYTES })
        : null;
    const records: PicksRecord[] = [];
    let c = 0;
    for (let g = start; g < Math.min(start + size, total); g++) {
      const group = groups[g];
      const e = energies ? energies.subarray(c, c + group.candidates.length) : null;
      c += group.candidates.length;
      const answers = group.candidates.map((x) => x.answerKey);
      const fields = groupFieldValues(group.candidates, model?.map.selectorFields ?? []);
      records.push(picksRecord(g, group, e, opts.rule, pickQuestion(answers, e, model?.map ?? null, opts.rule, generators(g), fields)));
    }
    done += records.length;
    await opts.onChunk(records);
    if (done >= total) break;
    if (opts.control?.pauseRequested) await opts.control.waitWhilePaused();
    if (opts.control?.stopRequested) {
      // The chunk tokenized ahead is dropped.
      next?.catch(() => undefined);
      return { done, total, cancelled: done < total };
    }
  }
  return { done, total, cancelled: false };
}
