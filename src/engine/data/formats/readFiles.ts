/**
 * One or several files → one Dataset (labelled) or PicksSet (no label or gold anywhere): each file's format
 * detected from its content, read by its reader as it streams, and all of them grouped together (the same
 * question id, else the same question text, is one group across files).
 */
import { NoValidLinesError, type IngestProgress } from '../ingest.ts';
import { DEFAULT_MAX_LINE_BYTES, splitLines } from '../lines.ts';
import { parseObject, readFields } from '../record.ts';
import type { Candidate, CandidateText, Dataset, Group, IngestReport, LineError, PicksSet } from '../types.ts';
import { ChatRequests } from './chatBatch.ts';
import { Collector } from './collector.ts';
import { type ObjectReader, type ReadContext, newContext } from './context.ts';
import { describeMapping } from './describe.ts';
import { type Layout, type ObjectKind, fileFormat, joinedFormat, layoutOf, objectKind } from './detect.ts';
import { splitArray } from './jsonArray.ts';
import { peek } from './peek.ts';
import { OBJECT_KINDS } from './table.ts';
import { NotJsonTextError, notJsonLines, notJsonText } from './sniff.ts';

export interface InputFile {
  name: string;
  stream: ReadableStream<Uint8Array>;
  size: number | null;
  /** Told every chunk of the file's bytes, in order, as it is read (e.g. to hash them); valid only during the call. */
  onBytes?: (bytes: Uint8Array) => void;
  /** The file's layout where the caller knows it (a JSON Lines file whose first line may be an array); else its first character says. */
  layout?: Layout;
}

export interface ReadOptions {
  maxLineBytes?: number;
  /** Every line must give a label or a gold answer (a file read only to train on): one without both is rejected at once, never a picks set. */
  requireLabels?: boolean;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
}

interface Opened {
  name: string;
  head: Uint8Array[];
  rest: ReadableStream<Uint8Array>;
  onBytes: ((bytes: Uint8Array) => void) | undefined;
  layout: Layout;
  kind: ObjectKind | null;
  firstLine: string | null;
}

function firstKind(line: string | null): ObjectKind | null {
  if (line === null) return null;
  const parsed = parseObject(line, 1);
  return parsed.ok ? objectKind(parsed.value) : null;
}

/** The reader the table (formats/table.ts) names for `kind`. */
function makeReader(kind: ObjectKind, ctx: ReadContext, requests: ChatRequests): ObjectReader {
  return OBJECT_KINDS.find((k) => k.kind === kind)!.reader(ctx, requests);
}

export async function readFiles(files: readonly InputFile[], options: ReadOptions = {}): Promise<Dataset | PicksSet> {
  if (files.length === 0) throw new Error('No file given.');
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const opened: Opened[] = [];
  for (const f of files) {
    const p = await peek(f.stream);
    const problem = notJsonText(p.head);
    if (problem !== null) {
      await Promise.all([p.rest, ...opened.map((o) => o.rest)].map((s) => s.cancel()));
      throw new NotJsonTextError(f.name, problem);
    }
    const layout = f.layout ?? layoutOf(p.firstChar);
    opened.push({
      name: f.name,
      head: p.head,
      rest: p.rest,
      onBytes: f.onBytes,
      layout,
      kind: layout === 'array' ? null : firstKind(p.firstLine),
      firstLine: p.firstLine,
    });
  }
  // Questions come from the request files: read them before any output.
  const order = [...opened.filter((o) => o.kind === 'chat-request'), ...opened.filter((o) => o.kind !== 'chat-request')];
  const multi = files.length > 1;
  const totalBytes = files.every((f) => f.size !== null) ? files.reduce((n, f) => n + f.size!, 0) : null;
  const collector = new Collector(options.requireLabels);
  const ctx = newContext();
  const requests = new ChatRequests();
  const report = collector.report;
  const kinds: Array<ObjectKind | null> = [];
  for (const file of order) {
    collector.setFile(multi ? file.name : undefined, multi ? file.name : null);
    let reader: ObjectReader | null = null;
    let kind = file.kind;
    const item = (text: string, line: number) => {
      const parsed = parseObject(text, line);
      if (!parsed.ok) return collector.reject(parsed.error);
      kind ??= objectKind(parsed.value);
      reader ??= makeReader(kind, ctx, requests);
      const read = reader;
      const r = readFields(line, () => read(parsed.value, parsed.source, line));
      if (!r.ok) return collector.reject(r.error);
      if (r.record === null) report.accepted++;
      else collector.line(r.record);
    };
    const base = { bytes: report.bytesRead, lines: report.linesRead };
    const progress = (bytesRead: number, lines: number) => {
      report.bytesRead = base.bytes + bytesRead;
      report.linesRead = base.lines + lines;
      options.onProgress?.({ bytesRead: report.bytesRead, totalBytes, lines: report.linesRead });
    };
    const streaming = { signal: options.signal, head: file.head, onChunk: file.onBytes };
    if (file.layout === 'array') {
      let items = 0;
      const element = (text: string, line: number, invalidUtf8: boolean) => {
        items++;
        if (invalidUtf8) report.invalidUtf8Lines++;
        item(text, line);
      };
      const error = (e: LineError) => {
        items++;
        collector.reject(e);
      };
      await splitArray(file.rest, { element, error, progress }, { maxElementBytes: maxLineBytes, ...streaming });
      // An array's counts are of its elements: each is one "line" read, accepted or rejected.
      report.linesRead = base.lines + items;
    } else {
      const tooLong = (line: number, bytes: number) =>
        collector.reject({ line, field: '(line)', kind: 'line_too_long', reason: `line too long: ${bytes} bytes (limit ${maxLineBytes})` });
      const line = (text: string, n: number, invalidUtf8: boolean) => {
        if (invalidUtf8) report.invalidUtf8Lines++;
        if (!/\S/.test(text)) report.blank++;
        else item(text, n);
      };
      await splitLines(file.rest, { line, tooLong, progress }, { maxLineBytes, ...streaming });
    }
    kinds.push(kind);
  }
  ctx.unansweredRequests = requests.unanswered();
  const collected = collector.finish();
  if (collected.candidateCount === 0) throw new NoValidLinesError(report, noCandidateReason(report, kinds) ?? lookalike(order, multi));
  const format = multi ? joinedFormat(kinds) : fileFormat(order[0].layout, kinds[0]);
  const labelsFrom = !collected.labelled ? 'none' : collected.givenLabels ? 'given' : 'gold';
  const mapping = describeMapping(
    format,
    files.length,
    collected.groups.map((g) => g.candidates.length),
    ctx,
    labelsFrom,
  );
  const names = files.map((f) => f.name);
  if (labelsFrom === 'none') {
    return { groups: collected.groups as Group<CandidateText>[], candidateCount: collected.candidateCount, report, format, files: names, labelsFrom, mapping };
  }
  return { groups: collected.groups as Group<Candidate>[], candidateCount: collected.candidateCount, report, format, files: names, labelsFrom, mapping };
}

/** Why lines read without error gave no candidate (undefined when none was: the usual reason then holds). */
function noCandidateReason(report: IngestReport, kinds: ReadonlyArray<ObjectKind | null>): string | undefined {
  if (report.accepted === 0) return undefined;
  if (kinds.includes('chat-request') && !kinds.includes('chat-output')) {
    return `its ${report.accepted} non-blank line${report.accepted === 1 ? ' is a chat batch request' : 's are chat batch requests'}: questions without answers; add the batch's output file (drop both files together)`;
  }
  return `no line gives an answer to rank (${report.accepted} read without one, ${report.rejected} rejected)`;
}

/** What the files look like instead of JSON Lines (CSV, pretty-printed JSON), each named when several were read. */
function lookalike(files: readonly Opened[], multi: boolean): string | undefined {
  const said = files.flatMap((f) => {
    const what = f.layout === 'array' ? null : notJsonLines(f.firstLine);
    return what === null ? [] : [multi ? `${f.name}: ${what}` : what];
  });
  return said.length === 0 ? undefined : said.join('; ');
}

/** A loaded set without labels: what the picks slot holds. */
export function isPicksSet(d: Dataset | PicksSet): d is PicksSet {
  return d.labelsFrom === 'none';
}
