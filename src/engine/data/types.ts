/**
 * Contracts between the data pipeline, the training loop and the UI.
 * Candidates are stored grouped: group g owns candidates groupStart[g] .. groupStart[g+1]-1.
 */

/** Token ids of many candidates in one compact, transferable buffer (vocab 50257 < 2^16). */
export interface TokenizedSet {
  maxLen: number;
  /** ids of every candidate, concatenated; candidate i is tokens[offsets[i] .. offsets[i+1]). Starts with CLS. */
  tokens: Uint16Array;
  /** nCandidates + 1 entries. */
  offsets: Uint32Array;
  /** Candidates cut at maxLen. */
  truncated: number;
}

/** Which generator wrote each candidate (the lines' optional `source` field). */
export interface CandidateSources {
  /** Distinct sources, in order of first appearance in the file. */
  names: string[];
  /** Per candidate, in view order (group after group): an index into `names`, or -1 when the line gives no source. */
  index: Int32Array;
}

/** The part of a dataset the model needs: tokens, labels and the grouping. */
export interface TrainingView {
  tokens: TokenizedSet;
  /** 0 or 1 per candidate (1 = correct). */
  labels: Uint8Array;
  /** nGroups + 1 entries; candidates of a group are contiguous. */
  groupStart: Uint32Array;
  /** Who wrote each candidate (the lines' `source`), for the per-source audit and the hold-out-sources split. Absent in views stored before it was kept: candidateSources(dataset) rebuilds it. */
  sources?: CandidateSources;
}

/** One candidate's text and answers: what every format gives, labelled or not. */
export interface CandidateText {
  /** 1-based line number in the source file (for a JSON array, the line its sample starts on). */
  line: number;
  genText: string;
  /** The `answer` field as given (numbers as written in the file), or null. */
  answer: string | null;
  /** Canonical final answer (see answers.ts): from `answer`, else extracted from genText; null if none. The key of an earlier answer of its question when the two are equal (answerClasses.ts): what the vote counts. */
  answerKey: string | null;
  /** Key of the answer extracted from genText (answerKey is this when the line gives no `answer`). */
  textAnswerKey: string | null;
  gold: string | null;
  /** Who wrote it: the line's `source`, its file's generator/model field, or (several files joined) its file's name. */
  source: string | null;
  /** The file it came from, when several files were joined. */
  file?: string;
  /** A chat completion's `reasoning_content`, kept beside the answer it led to (not scored). */
  reasoning?: string;
  /** One candidate per line: the line's numeric fields besides its label (an `energy`, another reward model's `score`…); absent where there are none. */
  scores?: Record<string, number>;
}

/** One accepted candidate with its label. */
export interface Candidate extends CandidateText {
  /** 1 = correct: the line's `label`, or, when it gives none, whether its answer is the gold answer (labelFromGold). */
  label: 0 | 1;
  /** The line gave no `label`; `label` says whether answerKey equals the gold answer's key. */
  labelFromGold: boolean;
  /** Whether answerKey equals the key of `gold` (answers.ts matchesGold); null when the line has no gold with a final answer. */
  goldMatch: boolean | null;
}

/** All candidates of one question, in file order. */
export interface Group<C extends CandidateText = Candidate> {
  /** `question_id` as a string (a number as written in the file), or null when the group was formed by question text. */
  questionId: string | null;
  /** The question text: the same on every line of the group (a line with another text is rejected). */
  question: string;
  candidates: C[];
}

export type LineErrorKind =
  | 'invalid_json'
  | 'not_object'
  | 'missing_field'
  | 'wrong_type'
  | 'empty_question'
  | 'bad_label'
  | 'line_too_long'
  /** A `question_id` already used with a different question text. */
  | 'conflicting_question'
  /** A chat batch output line whose request failed (`error`), or that no request file holds. */
  | 'request_failed';

/** Why one line was rejected. `field` is a JSON field name, or '(line)' for problems with the whole line. */
export interface LineError {
  /** The file, when several were read together. */
  file?: string;
  line: number;
  field: string;
  kind: LineErrorKind;
  reason: string;
}

/** Counts of one ingest. Invariant: accepted + rejected + blank = linesRead. */
export interface IngestReport {
  bytesRead: number;
  linesRead: number;
  accepted: number;
  rejected: number;
  /** Empty or whitespace-only lines (ignored). */
  blank: number;
  /** Lines with invalid UTF-8 (decoded with U+FFFD replacements); they are still accepted if otherwise valid. */
  invalidUtf8Lines: number;
  /** Every rejected line, in file order. */
  errors: LineError[];
}

/**
 * The format a file was read as: a name of formats/table.ts's FORMATS (FormatName; formats/detect.ts decides
 * which). A plain string here: the table imports the readers, which import this file.
 */
export type DataFormat = string;

/** Where the labels came from: the lines' own labels (some may be from gold), gold answers only, or nowhere. */
export type LabelsFrom = 'given' | 'gold' | 'none';

/** A file's candidates, grouped. Groups in order of first appearance; one Dataset per ingest (one file, or several joined). */
export interface Dataset {
  groups: Group[];
  candidateCount: number;
  report: IngestReport;
  /** Absent in datasets stored before formats were read: those are 'candidates'. */
  format?: DataFormat;
  /** The file names read, in the order given. Absent in stored datasets from before. */
  files?: string[];
  /** 'gold' when no line gave a label; absent in stored datasets from before. */
  labelsFrom?: 'given' | 'gold';
  /** What the readers detected and mapped; absent in stored datasets from before. */
  mapping?: FormatMapping;
}

/** What the readers made of the files: the panel's sentence and the counts behind it. */
export interface FormatMapping {
  /** E.g. "lm-evaluation-harness samples: 1,319 docs × 64 repeats; labels from `target`". */
  description: string;
  /** Correctness values that were neither boolean nor 0/1 (e.g. "[invalid]"): counted as incorrect. */
  invalidMarkers: number;
  /** lm-eval lines that repeat a doc_id (one line per filter): read once, the repeats skipped. */
  duplicateLines: number;
  /** Chat batch requests with no output line. */
  unansweredRequests: number;
}

/** A file without any label or gold answer: its groups can be scored and picked from, not trained on. */
export interface PicksSet {
  groups: Group<CandidateText>[];
  candidateCount: number;
  report: IngestReport;
  format: DataFormat;
  files: string[];
  labelsFrom: 'none';
  mapping?: FormatMapping;
}
