import { describe, expect, it } from 'vitest';
import { NoValidLinesError, type IngestProgress } from './ingest.ts';
import { createRng } from '../shared/rng.ts';
import { bytesStream, readDataset } from './testing/node.ts';

const row = (o: Record<string, unknown>) => JSON.stringify(o);

describe('one labelled JSONL file read (readFiles)', () => {
  it('groups by question_id when present, else by question text, in order of first appearance', async () => {
    const text = [
      row({ question: 'Q1', gen_text: 'a', label: 1, question_id: 1 }),
      row({ question: 'Free', gen_text: 'b', label: 0 }),
      row({ question: 'Q1', gen_text: 'c', label: 0, question_id: '1' }),
      row({ question: 'Free', gen_text: 'd', label: 1 }),
      row({ question: '1', gen_text: 'e', label: 1 }),
      row({ question: 'Free', gen_text: 'f', label: 0, question_id: 'x' }),
    ].join('\n');
    const ds = await readDataset(bytesStream(text));
    expect(ds.groups.map((g) => [g.questionId, g.question, g.candidates.map((c) => c.genText).join('')])).toEqual([
      ['1', 'Q1', 'ac'],
      [null, 'Free', 'bd'],
      [null, '1', 'e'],
      ['x', 'Free', 'f'],
    ]);
    expect(ds.candidateCount).toBe(6);
    expect(ds.groups[0].candidates.map((c) => c.line)).toEqual([1, 3]);
  });

  it('rejects a line whose question_id was used with another question, instead of merging the two', async () => {
    const text = [
      row({ question: 'Q1', gen_text: 'a', label: 1, question_id: 7 }),
      row({ question: 'Q1 (reworded)', gen_text: 'b', label: 0, question_id: '7' }),
      row({ question: 'Q1', gen_text: 'c', label: 0, question_id: 7 }),
    ].join('\n');
    const ds = await readDataset(bytesStream(text));
    expect(ds.groups.map((g) => g.candidates.map((c) => c.genText).join(''))).toEqual(['ac']);
    expect(ds.report.errors).toEqual([
      {
        line: 2,
        field: 'question',
        kind: 'conflicting_question',
        reason:
          'question_id "7" was first used on line 1 with another question ("Q1"); give each question its own question_id, or write the question identically',
      },
    ]);
    expect([ds.report.accepted, ds.report.rejected]).toEqual([2, 1]);
  });

  it('keeps numeric ids beyond 2^53 apart (read as written, not rounded)', async () => {
    const text = [
      '{"question": "A", "gen_text": "a", "label": 1, "question_id": 12345678901234567890}',
      '{"question": "B", "gen_text": "b", "label": 0, "question_id": 12345678901234567891}',
    ].join('\n');
    const ds = await readDataset(bytesStream(text));
    expect(ds.groups.map((g) => [g.questionId, g.question])).toEqual([
      ['12345678901234567890', 'A'],
      ['12345678901234567891', 'B'],
    ]);
    expect(ds.report.rejected).toBe(0);
  });

  it('accepts a BOM at the start of a later line (files joined with cat)', async () => {
    const file = (q: string) => `\uFEFF${row({ question: q, gen_text: 'g', label: 1 })}\n`;
    const ds = await readDataset(bytesStream(file('A') + file('B')));
    expect(ds.groups.map((g) => g.question)).toEqual(['A', 'B']);
    expect(ds.report.rejected).toBe(0);
  });

  it('keeps the optional fields and the answer key of each candidate', async () => {
    const ds = await readDataset(
      bytesStream(
        `${row({ question: 'Q', gen_text: 'x\nA: 7', label: 1, answer: '$1,000', gold: 1000, source: 's' })}\n${row({ question: 'Q', gen_text: 'x\nA: 7', label: 0 })}`,
      ),
    );
    expect(ds.groups[0].candidates).toEqual([
      {
        line: 1,
        genText: 'x\nA: 7',
        label: 1,
        labelFromGold: false,
        goldMatch: true,
        answer: '$1,000',
        answerKey: '1000',
        textAnswerKey: '7',
        gold: '1000',
        source: 's',
      },
      {
        line: 2,
        genText: 'x\nA: 7',
        label: 0,
        labelFromGold: false,
        goldMatch: null,
        answer: null,
        answerKey: '7',
        textAnswerKey: '7',
        gold: null,
        source: null,
      },
    ]);
  });

  it('labels a line that has a gold answer and no label by comparing answer keys', async () => {
    const lines = [
      row({ question: 'Q', gen_text: 'so 9 * 2 = 18.\nAnswer: $18', gold: 'She makes 9 * 2 = $18.\n#### 18' }),
      row({ question: 'Q', gen_text: 'The answer is \\boxed{\\frac{3}{4}}', gold: '0.75' }),
      row({ question: 'Q', gen_text: 'The answer is 17.', gold: 18 }),
      row({ question: 'Q', gen_text: 'nothing', gold: 18 }),
      row({ question: 'Q', gen_text: 'Answer: 18', gold: 18, label: 0 }), // a given label wins over gold
    ];
    const ds = await readDataset(bytesStream(lines.join('\n')));
    const c = ds.groups[0].candidates;
    expect(c.map((x) => [x.label, x.labelFromGold, x.goldMatch])).toEqual([
      [1, true, true],
      [1, true, true],
      [0, true, false],
      [0, true, false],
      [0, false, true],
    ]);
  });

  it("gives a question's equal answers one vote key, and labels from gold by the same rule", async () => {
    const lines = [
      row({ question: 'Q', gen_text: 'so $\\frac{x}{7}+\\frac{2}{7}$', gold: '\\frac{x+2}{7}' }),
      row({ question: 'Q', gen_text: 'A: (x+2)/7', gold: '\\frac{x+2}{7}' }),
      row({ question: 'Q', gen_text: 'A: x+2', gold: '\\frac{x+2}{7}' }),
      row({ question: 'R', gen_text: '\\boxed{1} and \\boxed{2}', label: 1 }),
      row({ question: 'R', gen_text: 'A: 2, 1', label: 0 }),
    ];
    const ds = await readDataset(bytesStream(lines.join('\n')));
    const [q, r] = ds.groups.map((g) => g.candidates);
    expect(q.map((c) => [c.answerKey, c.label, c.goldMatch])).toEqual([
      ['x/7+2/7', 1, true],
      ['x/7+2/7', 1, true],
      ['x+2', 0, false],
    ]);
    expect(q[1].textAnswerKey).toBe('(x+2)/7');
    expect(r.map((c) => c.answerKey)).toEqual(['1,2', '1,2']);
  });

  it('rejects a line with neither a label nor a gold answer that has a final answer, saying what to give', async () => {
    const ds = await readDataset(
      bytesStream(
        `${row({ question: 'Q', gen_text: 'g', gold: '  ' })}\n${row({ question: 'Q', gen_text: 'g' })}\n${row({ question: 'Q', gen_text: 'g', label: 1 })}`,
      ),
    );
    expect(ds.report.errors.map((e) => [e.line, e.field, e.kind])).toEqual([
      [1, 'label', 'missing_field'],
      [2, 'label', 'missing_field'],
    ]);
    expect(ds.report.errors[0].reason).toContain('give "label" (0 or 1) or a gold answer');
  });

  it('reports every kind of bad line with its number, counts blanks and invalid UTF-8, and keeps the invariant', async () => {
    const good = row({ question: 'Q', gen_text: 'g', label: 1 });
    const enc = new TextEncoder();
    const parts: Uint8Array[] = [
      enc.encode(`\uFEFF${good}\r\n`), // 1
      enc.encode('\r\n'), // 2 blank
      enc.encode('{oops\n'), // 3
      enc.encode(`${row({ question: 'Q', gen_text: 'g', label: 'yes' })}\n`), // 4
      enc.encode('   \t\n'), // 5 blank
      enc.encode('{"question": "Q", "gen_text": "bad '), // 6: invalid UTF-8 inside a valid line
      Uint8Array.of(0xc3, 0x28),
      enc.encode('", "label": 0}\n'),
      enc.encode(`${row({ question: 'Q', gen_text: 'x'.repeat(300), label: 1 })}\n`), // 7: too long
      enc.encode('42\n'), // 8
      enc.encode(good), // 9, no final newline
    ];
    const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (data.set(p, at), at + p.length), 0);

    const ds = await readDataset(bytesStream(data, 5), { maxLineBytes: 200 });
    const r = ds.report;
    expect(r.errors.map((e) => [e.line, e.field, e.kind])).toEqual([
      [3, '(line)', 'invalid_json'],
      [4, 'label', 'bad_label'],
      [7, '(line)', 'line_too_long'],
      [8, '(line)', 'not_object'],
    ]);
    expect(r.errors[2].reason).toMatch(/^line too long: \d+ bytes \(limit 200\)$/);
    expect({ lines: r.linesRead, accepted: r.accepted, rejected: r.rejected, blank: r.blank, invalidUtf8: r.invalidUtf8Lines }).toEqual({
      lines: 9,
      accepted: 3,
      rejected: 4,
      blank: 2,
      invalidUtf8: 1,
    });
    expect(r.accepted + r.rejected + r.blank).toBe(r.linesRead);
    expect(r.bytesRead).toBe(data.length);
    expect(ds.groups[0].candidates.map((c) => c.genText)).toEqual(['g', 'bad \uFFFD(', 'g']);
  });

  it('keeps accepted + rejected + blank = lines read on random files and chunk sizes', async () => {
    const rng = createRng(5);
    const kinds = [
      () => row({ question: `Q${rng.int(4)}`, gen_text: 'é'.repeat(rng.int(30)), label: rng.int(2) }),
      () => '',
      () => ' \t',
      () => '{"question": ',
      () => row({ question: 'Q', gen_text: 't', label: 'no' }),
      () => row({ question: 'Q', gen_text: 'y'.repeat(100), label: 1 }),
      () => '[]',
    ];
    for (let trial = 0; trial < 30; trial++) {
      const n = 1 + rng.int(40);
      const lines = Array.from({ length: n }, () => kinds[rng.int(kinds.length)]());
      // A valid last line: the file is never empty of candidates, and an empty last line without newline would not be a line.
      lines[n - 1] = kinds[0]();
      const text = lines.join(rng.int(2) ? '\n' : '\r\n') + (rng.int(2) ? '\n' : '');
      const { report: r } = await readDataset(bytesStream(text, 1 + rng.int(50)), { maxLineBytes: 90 });
      expect(r.linesRead).toBe(n);
      expect(r.accepted + r.rejected + r.blank).toBe(r.linesRead);
      expect(r.errors.length).toBe(r.rejected);
    }
  });

  it('fails with a clear typed error when no line is valid', async () => {
    // The first line ends as an object does: a file that merely looks like pretty-printed JSON is told so instead.
    const run = readDataset(bytesStream('\n{bad}\n{"question": "Q"}\n'));
    await expect(run).rejects.toBeInstanceOf(NoValidLinesError);
    const err = (await run.catch((e: unknown) => e)) as NoValidLinesError;
    expect(err.message).toBe('No valid line in the file: all 2 non-blank lines were rejected (3 lines read).');
    expect(err.report.errors.map((e) => e.line)).toEqual([2, 3]);
    await expect(readDataset(bytesStream(''))).rejects.toThrow('No valid line in the file: the file has no non-blank line (0 lines read).');
  });

  it('reports progress with the known total, ending at the full size', async () => {
    const text = Array.from({ length: 50 }, (_, i) => row({ question: `Q${i}`, gen_text: 'g', label: i % 2 })).join('\n');
    const seen: IngestProgress[] = [];
    await readDataset(bytesStream(text, 256), { totalBytes: text.length, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(5);
    for (let i = 1; i < seen.length; i++) expect(seen[i].bytesRead).toBeGreaterThanOrEqual(seen[i - 1].bytesRead);
    expect(seen.at(-1)).toEqual({ bytesRead: text.length, totalBytes: text.length, lines: 50 });
  });

  it('builds independent datasets, even when two files are read at the same time', async () => {
    const a = Array.from({ length: 30 }, (_, i) => row({ question: `A${i % 3}`, gen_text: `a${i}`, label: i % 2 })).join('\n');
    const b = Array.from({ length: 20 }, (_, i) => row({ question: `B${i % 4}`, gen_text: `b${i}`, label: 1 })).join('\n');
    const [da, db] = await Promise.all([readDataset(bytesStream(a, 7)), readDataset(bytesStream(b, 5))]);
    const [alone] = await Promise.all([readDataset(bytesStream(a))]);
    expect(da).toEqual(alone);
    expect(db.groups.map((g) => g.question)).toEqual(['B0', 'B1', 'B2', 'B3']);
    expect(db.report.linesRead).toBe(20);
  });
});
