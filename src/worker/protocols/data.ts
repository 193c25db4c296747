/**
 * The engine worker's protocol (commands.ts, events.ts): the data files, what is read from them and kept.
 */
import type { DatasetStats, TokenLengthStats } from '../../engine/metrics/datasetStats.ts';
import type { DataFormat, LabelsFrom, LineErrorKind } from '../../engine/data/types.ts';
import type { SourceRow as DataSourceRow } from '../../engine/data/sourceRows.ts';
import type { SplitKind } from '../../engine/data/split.ts';

export type DataRole = 'train' | 'test';

/** `files`: several files dropped together, read as one dataset (formats/readFiles.ts). */
export type DataSource = { kind: 'file'; file: File } | { kind: 'files'; files: File[] } | { kind: 'url'; url: string; name: string };

/** A tokenized file kept in this browser (see storage/datasetKey.ts for its key). */
export interface StoredDatasetInfo {
  key: string;
  name: string;
  bytes: number;
  candidates: number;
  savedAt: number;
}

/** What the data panel shows about one loaded file. */
export interface DatasetSummary {
  role: DataRole;
  name: string;
  bytes: number;
  stats: DatasetStats;
  tokens: TokenLengthStats;
  /** The first 200 rejected lines, as ready-made messages. */
  firstErrors: Array<{ line: number; field: string; kind: LineErrorKind; message: string }>;
  errorCounts: Record<LineErrorKind, number>;
  /** Groups with both labels, and how the seeded 80/20 split divides them (train role only). */
  trainableGroups: number;
  /** kind and holdoutSources: how the split was made (split.ts); absent in summaries of the test role. */
  split: { seed: number; train: number; val: number; kind?: SplitKind; holdoutSources?: string[] } | null;
  /** The distinct `source` names of the file's candidates (what "hold out sources" offers); [] when the lines name none. */
  sources?: string[];
  /** The detected format, the files read, where labels came from ('none': a picks set, not trainable), and what was mapped. */
  format?: DataFormat;
  files?: string[];
  labelsFrom?: LabelsFrom;
  mapping?: string;
  /** Candidates per source (a generator, else the file), with the share labelled correct (null without labels). */
  sourceRows?: DataSourceRow[];
  /** Numeric fields every candidate line carries (an `energy`, another reward model's `score`): scores that can be evaluated without a model. */
  scoreFields?: string[];
  /** Seconds spent reading + parsing, and tokenizing, and with how many tokenizer workers. */
  timing: { parseSeconds: number; tokenizeSeconds: number; workers: number };
}

export interface IngestProgressEvent {
  type: 'ingestProgress';
  role: DataRole;
  phase: 'reading' | 'tokenizing';
  /** Bytes read (reading) or candidates tokenized (tokenizing), out of total. */
  done: number;
  total: number;
  lines: number;
  etaSeconds: number | null;
}
