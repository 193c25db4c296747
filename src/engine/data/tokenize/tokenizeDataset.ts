/**
 * Tokenizes a whole dataset on a pool: splits the groups into contiguous ranges of similar text
 * size, runs them concurrently, and merges in group order — the result is identical for any pool.
 */
import { candidateSources } from '../candidateSources.ts';
import { mergeChunks, tokenizeJob, type TokenizeSettings } from './tokenize.ts';
import type { TokenizePool } from './tokenizePool.ts';
import type { Dataset, TokenizedSet, TrainingView } from '../types.ts';

export interface TokenizeProgress {
  candidatesDone: number;
  candidates: number;
}

export interface TokenizeDatasetOptions {
  /** Jobs per pool slot; more, smaller jobs balance uneven groups and give finer progress. Default 4. */
  jobsPerWorker?: number;
  onProgress?: (progress: TokenizeProgress) => void;
}

/** Group boundaries [g0, g1, …, nGroups] cutting the dataset into `count` runs of about equal characters. */
function planRanges(dataset: Dataset, count: number): number[] {
  const weights = dataset.groups.map((g) => g.candidates.reduce((n, c) => n + c.genText.length, g.question.length + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const bounds = [0];
  let acc = 0;
  for (let g = 0; g < weights.length; g++) {
    acc += weights[g];
    if (acc >= (total * bounds.length) / count && g + 1 < weights.length) bounds.push(g + 1);
  }
  bounds.push(weights.length);
  return bounds;
}

export async function tokenizeDataset(
  dataset: Dataset,
  settings: TokenizeSettings,
  pool: TokenizePool,
  options: TokenizeDatasetOptions = {},
): Promise<TokenizedSet> {
  const bounds = planRanges(dataset, Math.max(1, pool.size * (options.jobsPerWorker ?? 4)));
  let candidatesDone = 0;
  const jobs = [];
  for (let r = 0; r + 1 < bounds.length; r++) {
    const groups = dataset.groups.slice(bounds[r], bounds[r + 1]);
    const job = tokenizeJob(groups, settings);
    jobs.push(
      pool.run(job).then((chunk) => {
        candidatesDone += job.genTexts.length;
        options.onProgress?.({ candidatesDone, candidates: dataset.candidateCount });
        return chunk;
      }),
    );
  }
  return mergeChunks(await Promise.all(jobs), settings.maxLen);
}

/** Labels and group boundaries in dataset order (what the split and the training loop index by). */
export function datasetLabels(dataset: Dataset): Pick<TrainingView, 'labels' | 'groupStart'> {
  const labels = new Uint8Array(dataset.candidateCount);
  const groupStart = new Uint32Array(dataset.groups.length + 1);
  let c = 0;
  dataset.groups.forEach((g, i) => {
    for (const cand of g.candidates) labels[c++] = cand.label;
    groupStart[i + 1] = c;
  });
  return { labels, groupStart };
}

/** The model's view of a dataset: its tokens (from tokenizeDataset) with labels and group boundaries. */
export function trainingView(dataset: Dataset, tokens: TokenizedSet): TrainingView {
  if (tokens.offsets.length !== dataset.candidateCount + 1) {
    throw new Error(`tokens hold ${tokens.offsets.length - 1} candidates, the dataset ${dataset.candidateCount}`);
  }
  return { tokens, ...datasetLabels(dataset), sources: candidateSources(dataset) };
}
