import { NoValidLinesError } from '../../engine/data/ingest.ts';
import { type InputFile, isPicksSet, readFiles } from '../../engine/data/formats/readFiles.ts';
import { NotJsonTextError } from '../../engine/data/formats/sniff.ts';
import { sourceRows } from '../../engine/data/sourceRows.ts';
import { Sha256 } from '../../engine/data/sha256.ts';
import { countErrorsByKind, lineErrorMessage } from '../../engine/data/lineErrors.ts';
import { type GroupSplit, splitGroups, trainableGroups } from '../../engine/data/split.ts';
import { datasetStats, tokenLengthStats } from '../../engine/metrics/datasetStats.ts';
import { tokenizeDataset, trainingView } from '../../engine/data/tokenize/tokenizeDataset.ts';
import type { TokenizePool } from '../../engine/data/tokenize/tokenizePool.ts';
import type { Dataset, PicksSet, TrainingView } from '../../engine/data/types.ts';
import { GPT2_EOT } from '../../engine/data/tokenize/gpt2.ts';
import type { DataRole, DatasetSummary, DataSource, IngestProgressEvent } from '../protocols/data.ts';
import { type ContentHash, datasetKey } from '../storage/datasetKey.ts';

/**
 * Candidates are tokenized once, up to this many ids. Right truncation keeps a prefix, so any model
 * maxLen up to the cap reads its inputs from the same buffer (the paper's longest setting is 4096).
 */
export const TOKEN_CAP = 4096;
const FIRST_ERRORS = 200;

export interface LoadedData {
  role: DataRole;
  /** Storage key of its tokenization (datasetKey.ts), built on `contentHash`; set whether or not it is stored. */
  key: string;
  /** The file's identity, "sha256:<hex>" of its bytes: what runs and model files record, and a reload checks. */
  contentHash: ContentHash;
  name: string;
  bytes: number;
  dataset: Dataset;
  view: TrainingView;
  /** Canonical final answer per candidate, in view order. */
  answers: Array<string | null>;
  split: GroupSplit;
  splitSeed: number;
  /** The split's train fraction; absent: DEFAULT_TRAIN_FRACTION (loads split with it; continuing from a model may not). */
  splitFraction?: number;
  timing: DatasetSummary['timing'];
}

/** A file (or files) without any label or gold answer: kept for Pick answers, not tokenized until picked. */
export interface LoadedPicks {
  role: DataRole;
  name: string;
  bytes: number;
  picks: PicksSet;
  timing: DatasetSummary['timing'];
}

/** loadAny for training and test data: a file without labels is refused with a plain reason. */
export async function loadData(...args: Parameters<typeof loadAny>): Promise<LoadedData> {
  const d = await loadAny(...args);
  if ('picks' in d) throw new Error(`${d.name}: no line has a label or a gold answer, so there is nothing to train or evaluate on; use it with Pick answers.`);
  return d;
}

/**
 * Streams, detects, validates, groups and (when labelled) tokenizes one file or several read together.
 * Throws (the caller keeps its previous data) when nothing valid is in them.
 * `contentHash`: the file's identity when the caller already hashed its bytes; else they are hashed as they stream.
 */
export async function loadAny(
  role: DataRole,
  source: DataSource,
  /** A function: the tokenizer workers are started only when a labelled file needs them (a picks set is tokenized when picked). */
  pool: TokenizePool | (() => TokenizePool),
  seed: number,
  progress: (e: IngestProgressEvent) => void,
  contentHash?: ContentHash,
): Promise<LoadedData | LoadedPicks> {
  const opened = await open(source);
  const name = opened.map((f) => f.name).join(' + ');
  const size = opened.every((f) => f.size !== null) ? opened.reduce((n, f) => n + f.size!, 0) : null;
  const hashes = contentHash === undefined ? opened.map(() => new Sha256()) : null;
  const inputs = hashes ? opened.map((f, i) => ({ ...f, onBytes: (b: Uint8Array) => void hashes[i].update(b) })) : opened;
  const t0 = performance.now();
  const eta = (done: number, total: number) => {
    const elapsed = (performance.now() - t0) / 1000;
    return done > 0 && total > 0 && elapsed > 0.5 ? (elapsed * (total - done)) / done : null;
  };
  let read: Dataset | PicksSet;
  try {
    read = await readFiles(inputs, {
      onProgress: (p) =>
        progress({
          type: 'ingestProgress',
          role,
          phase: 'reading',
          done: p.bytesRead,
          total: size ?? 0,
          lines: p.lines,
          etaSeconds: size ? eta(p.bytesRead, size) : null,
        }),
    });
  } catch (e) {
    if (e instanceof NoValidLinesError) {
      const first = e.report.errors[0];
      throw new Error(`${name}: ${e.message}${first ? ` First problem: ${lineErrorMessage(first)}.` : ''}`);
    }
    if (e instanceof NotJsonTextError) throw new Error(`${e.message}.`);
    throw e;
  }
  if (isPicksSet(read)) {
    return { role, name, bytes: read.report.bytesRead, picks: read, timing: { parseSeconds: (performance.now() - t0) / 1000, tokenizeSeconds: 0, workers: 0 } };
  }
  const dataset = read;
  const workers = typeof pool === 'function' ? pool() : pool;
  const t1 = performance.now();
  const identity = hashes ? identityOf(opened, hashes) : contentHash!;
  const lines = dataset.report.linesRead;
  const tokens = await tokenizeDataset(dataset, { maxLen: TOKEN_CAP, clsId: GPT2_EOT, sepId: GPT2_EOT }, workers, {
    onProgress: (p) => {
      const elapsed = (performance.now() - t1) / 1000;
      const etaSeconds = p.candidatesDone > 0 && elapsed > 0.5 ? (elapsed * (p.candidates - p.candidatesDone)) / p.candidatesDone : null;
      progress({ type: 'ingestProgress', role, phase: 'tokenizing', done: p.candidatesDone, total: p.candidates, lines, etaSeconds });
    },
  });
  const view = trainingView(dataset, tokens);
  const answers = dataset.groups.flatMap((g) => g.candidates.map((c) => c.answerKey));
  const t2 = performance.now();
  return {
    role,
    key: datasetKey(identity, TOKEN_CAP),
    contentHash: identity,
    name,
    bytes: dataset.report.bytesRead,
    dataset,
    view,
    answers,
    split: splitGroups(view, { seed }),
    splitSeed: seed,
    timing: { parseSeconds: (t1 - t0) / 1000, tokenizeSeconds: (t2 - t1) / 1000, workers: workers.size },
  };
}

/** The panel's figures for a loaded file, with token lengths judged against the model's maxLen. */
export function summarize(data: LoadedData, maxLen: number): DatasetSummary {
  const errors = data.dataset.report.errors;
  return {
    role: data.role,
    name: data.name,
    bytes: data.bytes,
    stats: datasetStats(data.dataset),
    tokens: tokenLengthStats(data.view.tokens, Math.min(maxLen, TOKEN_CAP)),
    firstErrors: errors.slice(0, FIRST_ERRORS).map((e) => ({ line: e.line, field: e.field, kind: e.kind, message: lineErrorMessage(e) })),
    errorCounts: countErrorsByKind(errors),
    trainableGroups: trainableGroups(data.view).length,
    split: data.role === 'train' ? { seed: data.splitSeed, train: data.split.train.length, val: data.split.val.length } : null,
    timing: data.timing,
    ...formatFields(data.dataset, data.name),
  };
}

/** What the panel says about the format: the same for a labelled dataset and a picks set. */
function formatFields(d: Dataset | PicksSet, name: string): Pick<DatasetSummary, 'format' | 'files' | 'labelsFrom' | 'mapping' | 'sourceRows'> {
  return {
    format: d.format ?? 'candidates',
    files: d.files ?? [name],
    labelsFrom: d.labelsFrom ?? (d.groups.some((g) => g.candidates.some((c) => 'labelFromGold' in c && !c.labelFromGold)) ? 'given' : 'gold'),
    mapping: d.mapping?.description,
    sourceRows: sourceRows(d.groups, name),
  };
}

/** A picks set's panel figures: counts and errors; no label statistics, no token lengths (it is tokenized when picked). */
export function summarizePicks(data: LoadedPicks): DatasetSummary {
  const { picks } = data;
  const errors = picks.report.errors;
  // Statistics read labels: a picks set has none, so they are taken as all wrong and the panel does not show them.
  const unlabelled: Dataset = {
    groups: picks.groups.map((g) => ({ ...g, candidates: g.candidates.map((c) => ({ ...c, label: 0 as const, labelFromGold: false, goldMatch: null })) })),
    candidateCount: picks.candidateCount,
    report: picks.report,
  };
  return {
    role: data.role,
    name: data.name,
    bytes: data.bytes,
    stats: datasetStats(unlabelled),
    tokens: { maxLen: 0, truncated: 0, min: 0, median: 0, max: 0, mean: 0, histogram: { edges: [], counts: [] } },
    firstErrors: errors.slice(0, FIRST_ERRORS).map((e) => ({ line: e.line, field: e.field, kind: e.kind, message: lineErrorMessage(e) })),
    errorCounts: countErrorsByKind(errors),
    trainableGroups: 0,
    split: null,
    timing: data.timing,
    ...formatFields(picks, data.name),
  };
}

/** One file's identity is its bytes' hash; several files', the hash of their names and hashes in the order given. */
function identityOf(files: readonly InputFile[], hashes: readonly Sha256[]): ContentHash {
  if (files.length === 1) return `sha256:${hashes[0].hex()}`;
  const joined = new Sha256().update(new TextEncoder().encode(files.map((f, i) => `${f.name}\t${hashes[i].hex()}\n`).join('')));
  return `sha256:${joined.hex()}`;
}

/** Files up to this size are read whole (hashed natively, and kept in storage); larger ones only stream, hashed on the way. */
export const STORED_MAX_BYTES = 256 * 1024 * 1024;

/** The whole file, to hash it before tokenizing (and so find it in storage); null for one over `maxBytes` (it then streams). */
export async function readWhole(source: DataSource, maxBytes = STORED_MAX_BYTES): Promise<{ file: File; bytes: ArrayBuffer } | null> {
  if (source.kind === 'file') return source.file.size <= maxBytes ? { file: source.file, bytes: await source.file.arrayBuffer() } : null;
  // Several files are read as they come, not stored.
  if (source.kind === 'files') return null;
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`Could not download ${source.name} (${source.url}): HTTP ${response.status}.`);
  // A download over the limit streams like a big file: held whole, it doubles the tab's memory while it loads.
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  const bytes = await response.arrayBuffer();
  return { file: new File([bytes], source.name), bytes };
}

async function open(source: DataSource): Promise<InputFile[]> {
  if (source.kind === 'file') return [{ stream: source.file.stream(), name: source.file.name, size: source.file.size }];
  if (source.kind === 'files') return source.files.map((file) => ({ stream: file.stream(), name: file.name, size: file.size }));
  const response = await fetch(source.url);
  if (!response.ok || !response.body) throw new Error(`Could not download ${source.name} (${source.url}): HTTP ${response.status}.`);
  const length = Number(response.headers.get('content-length'));
  return [{ stream: response.body, name: source.name, size: Number.isFinite(length) && length > 0 ? length : null }];
}
