/**
 * The readers against python/tests/golden/formats (python/tests/test_formats.py reads the same files and
 * expectations): every format's normalized result, errors included. UPDATE_FORMAT_GOLDEN=1 rewrites the
 * expectations from this side (then the python test must agree with them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NoValidLinesError } from '../ingest.ts';
import type { CandidateText, Dataset, IngestReport, PicksSet } from '../types.ts';
import { readFiles } from './readFiles.ts';
import { NotJsonTextError } from './sniff.ts';

const DIR = new URL('../../../../python/tests/golden/formats/', import.meta.url);
const cases = JSON.parse(readFileSync(new URL('cases.json', DIR), 'utf8')) as Array<{ name: string; files: string[]; maxLineBytes?: number }>;

function streamOf(bytes: Uint8Array, chunk = 97): ReadableStream<Uint8Array> {
  let at = 0;
  // Small chunks: lines and array elements cross chunk boundaries.
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

const reportOf = (r: IngestReport) => ({
  linesRead: r.linesRead,
  accepted: r.accepted,
  rejected: r.rejected,
  blank: r.blank,
  errors: r.errors.map((e) => [e.file ?? null, e.line, e.field, e.kind]),
});

export function normalize(d: Dataset | PicksSet) {
  return {
    format: d.format,
    labelsFrom: d.labelsFrom,
    files: d.files,
    candidateCount: d.candidateCount,
    report: reportOf(d.report),
    mapping: d.mapping,
    groups: d.groups.map((g) => ({
      questionId: g.questionId,
      question: g.question,
      candidates: (g.candidates as Array<CandidateText & { label?: 0 | 1; labelFromGold?: boolean }>).map((c) => ({
        file: c.file ?? null,
        line: c.line,
        genText: c.genText,
        gold: c.gold,
        source: c.source,
        answerKey: c.answerKey,
        label: c.label ?? null,
        labelFromGold: c.labelFromGold ?? null,
        reasoning: c.reasoning ?? null,
      })),
    })),
  };
}

async function run(files: string[], maxLineBytes?: number): Promise<unknown> {
  const inputs = files.map((f) => {
    const bytes = readFileSync(new URL(f, DIR));
    return { name: f.slice(f.lastIndexOf('/') + 1), stream: streamOf(new Uint8Array(bytes)), size: bytes.length };
  });
  try {
    return normalize(await readFiles(inputs, { maxLineBytes }));
  } catch (e) {
    if (e instanceof NotJsonTextError) return { notJsonText: e.message };
    if (!(e instanceof NoValidLinesError)) throw e;
    return { noValidLines: true, message: e.message, report: reportOf(e.report) };
  }
}

describe('format readers against the shared golden files', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const got = await run(c.files, c.maxLineBytes);
      const path = new URL(`expected/${c.name}.json`, DIR);
      if (process.env.UPDATE_FORMAT_GOLDEN) writeFileSync(path, `${JSON.stringify(got, null, 1)}\n`);
      expect(got).toEqual(JSON.parse(readFileSync(path, 'utf8')));
    });
  }
});
