/**
 * Fuzzing the JSONL ingest with seeded, generated files: mostly bad lines of every kind the format can
 * go wrong in, among valid lines and blank ones, with LF or CRLF endings, with or without a final
 * newline, read in chunks of any size. The ingest must never throw (except the typed NoValidLinesError
 * for a file without one valid line), must report every bad line with its number and a reason, and keep
 * every valid line.
 */
import { describe, expect, it } from 'vitest';
import { NoValidLinesError } from './ingest.ts';
import { lineErrorMessage } from './lineErrors.ts';
import { createRng, type Rng } from '../shared/rng.ts';
import { bytesStream, readDataset } from './testing/node.ts';
import type { Dataset, LineErrorKind } from './types.ts';

type Spec =
  | { type: 'valid'; text: Uint8Array; question: string; questionId: string | null; genText: string; label: 0 | 1 }
  | { type: 'bad'; text: Uint8Array; what: string; kinds: readonly LineErrorKind[]; reason?: RegExp }
  | { type: 'blank'; text: Uint8Array };

const enc = new TextEncoder();
const bytes = (...parts: Array<string | number[]>): Uint8Array => {
  const chunks = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => (out.set(c, at), at + c.length), 0);
  return out;
};

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];
const space = (rng: Rng): string => pick(rng, ['', '', ' ', '  ', '\t']);

/** Questions keyed by id (numeric ids beyond 2^53 included) or by text alone; never an id with two texts. */
const QUESTIONS: ReadonlyArray<{ text: string; id: string | null; idLiteral: string | null }> = Array.from({ length: 24 }, (_, k) => {
  const text = `Question ${k}: how many ${pick(createRng(k), ['eggs', 'pages', 'ünits', '日本', '😀'])}?`;
  if (k % 3 === 0) return { text, id: null, idLiteral: null };
  if (k % 3 === 1) return { text, id: `q${k}`, idLiteral: JSON.stringify(`q${k}`) };
  const big = `1234567890123456789${k}`; // beyond 2^53: must stay distinct from its neighbours
  return { text, id: big, idLiteral: big };
});

const GEN_PIECES = [
  'Step 1: 3 + 4 = 7. ',
  'The answer is 18. ',
  '#### 42',
  '\\boxed{\\frac{1}{2}}',
  'A: 5\n',
  'é€',
  '😀',
  '<|endoftext|>',
  '"quoted"',
  'back\\slash',
  '\u0000',
  '\ud800',
  '\udfff',
  '\t',
  '\r\n',
];

function genText(rng: Rng): string {
  let s = '';
  const n = rng.int(12);
  for (let i = 0; i < n; i++) s += pick(rng, GEN_PIECES);
  if (rng.int(20) === 0) s += 'long '.repeat(200 + rng.int(800));
  return s;
}

/** Nested arrays and objects, as an unknown field a valid line may carry. */
const deep = (depth: number): string => `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;

/** A valid record's fields, in source form, in random order; `edit` may replace or delete fields to make it bad. */
function recordFields(rng: Rng, q: (typeof QUESTIONS)[number], gen: string, labelLiteral: string): Map<string, string> {
  const fields = new Map<string, string>([
    ['question', JSON.stringify(q.text)],
    [rng.int(4) === 0 ? 'generated_full_text' : 'gen_text', JSON.stringify(gen)],
    ['label', labelLiteral],
  ]);
  if (q.idLiteral !== null) fields.set('question_id', q.idLiteral);
  if (rng.int(2)) fields.set('answer', pick(rng, ['"18"', '18', '1.50', '12345678901234567890', '"$1,000"', 'null']));
  if (rng.int(4) === 0) fields.set('gold', pick(rng, ['"18"', '18', 'null']));
  if (rng.int(4) === 0) fields.set('source', pick(rng, ['"gpt-3"', 'null']));
  if (rng.int(5) === 0) fields.set('extra', pick(rng, ['[1, {"label": 0.5}]', '{"question": 7}', deep(1 + rng.int(300)), '"\\"label\\": 2"']));
  return fields;
}

function render(rng: Rng, fields: Map<string, string>): string {
  const entries = [...fields];
  for (let i = entries.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [entries[i], entries[j]] = [entries[j], entries[i]];
  }
  return `${space(rng)}{${entries.map(([k, v]) => `${space(rng)}${JSON.stringify(k)}${space(rng)}:${space(rng)}${v}`).join(',')}${space(rng)}}`;
}

const LABELS: ReadonlyArray<[string, 0 | 1]> = [
  ['0', 0],
  ['1', 1],
  ['true', 1],
  ['false', 0],
  ['1.0', 1],
  ['0.0', 0],
  ['10e-1', 1],
  ['-0', 0],
];

function valid(rng: Rng): Spec {
  const q = pick(rng, QUESTIONS);
  const [labelLiteral, label] = pick(rng, LABELS);
  const gen = genText(rng);
  const text = render(rng, recordFields(rng, q, gen, labelLiteral));
  const roll = rng.int(10);
  // A BOM at the line start (files joined with cat), and invalid UTF-8 inside a string (read as U+FFFD).
  if (roll === 0) return { type: 'valid', text: bytes(`\uFEFF${text}`), question: q.text, questionId: q.id, genText: gen, label };
  if (roll === 1) {
    const at = text.indexOf('"', text.indexOf(':', text.search(/"(gen_text|generated_full_text)"/)) + 1) + 1;
    return {
      type: 'valid',
      text: bytes(text.slice(0, at), [0xed, 0xa0, 0x80], text.slice(at)),
      question: q.text,
      questionId: q.id,
      genText: `\uFFFD\uFFFD\uFFFD${gen}`,
      label,
    };
  }
  return { type: 'valid', text: bytes(text), question: q.text, questionId: q.id, genText: gen, label };
}

/** A record with one field replaced (or deleted, with `undefined`). */
function edited(rng: Rng, field: string, value: string | undefined): string {
  const fields = recordFields(rng, pick(rng, QUESTIONS), genText(rng), pick(rng, LABELS)[0]);
  if (field === 'gen_text') {
    fields.delete('generated_full_text');
    fields.set('gen_text', '"g"');
  }
  if (value === undefined) fields.delete(field);
  else fields.set(field, value);
  // A line without a label (null is none) but with a gold answer is labelled from it: a missing label needs no gold too.
  if (field === 'label' && (value === undefined || value === 'null')) fields.delete('gold');
  return render(rng, fields);
}

const WRONG_TYPES = ['5', '1e400', '[]', '{}', 'true', 'null', '[[[["x"]]]]'];
const BAD_LABELS = [
  '"yes"',
  '"1"',
  '2',
  '-1',
  '0.5',
  '[1]',
  '{}',
  '1e400',
  '-1e400',
  '1e-400',
  '0.99999999999999999',
  '1.0000000000000001',
  `0.${'0'.repeat(400)}1`,
];

type Bad = Omit<Extract<Spec, { type: 'bad' }>, 'type'>;

/** Generators of bad lines, each with the kinds of rejection it allows. */
const BAD: ReadonlyArray<(rng: Rng, usedIds: Array<(typeof QUESTIONS)[number]>) => Bad> = [
  (rng) => {
    // Random bytes (never a LF, which would end the line); a printable first byte so the line is not blank.
    const out = [0x21 + rng.int(94)];
    for (let i = rng.int(200); i > 0; i--) {
      const b = rng.int(256);
      out.push(b === 0x0a ? 0x0b : b);
    }
    return { what: 'random bytes', text: Uint8Array.from(out), kinds: ['invalid_json', 'not_object', 'missing_field'] };
  },
  (rng) => {
    const full = enc.encode(render(rng, recordFields(rng, pick(rng, QUESTIONS), genText(rng), '1')).trim());
    return { what: 'truncated JSON', text: full.slice(0, 1 + rng.int(full.length - 1)), kinds: ['invalid_json'] };
  },
  (rng) => {
    const field = pick(rng, ['question', 'gen_text', 'source']);
    // null means "not given" for the optional source.
    const value = pick(rng, field === 'source' ? WRONG_TYPES.filter((v) => v !== 'null') : WRONG_TYPES);
    return { what: `wrong type of ${field}`, text: enc.encode(edited(rng, field, value)), kinds: ['wrong_type'] };
  },
  (rng) => ({
    what: 'wrong type of question_id or answer',
    text: enc.encode(edited(rng, pick(rng, ['question_id', 'answer', 'gold']), pick(rng, ['[]', '{}', 'true', '[[1]]']))),
    kinds: ['wrong_type'],
  }),
  (rng) => {
    const label = pick(rng, BAD_LABELS);
    const reason = /e400$/.test(label)
      ? /a number too large/
      : /^0\.0|e-400|0\.999|1\.000/.test(label)
        ? /only rounds to/
        : /^expected 0, 1, true or false, got /;
    return { what: `label ${label.slice(0, 20)}`, text: enc.encode(edited(rng, 'label', label)), kinds: ['bad_label'], reason };
  },
  (rng) => ({ what: 'empty question', text: enc.encode(edited(rng, 'question', pick(rng, ['""', '"  "', '"\\n\\t"']))), kinds: ['empty_question'] }),
  (rng) => {
    const field = pick(rng, ['question', 'gen_text', 'label']);
    // "label": null is no label (issue 48, point 12).
    const value = field === 'label' && rng.int(2) === 0 ? 'null' : undefined;
    return { what: `missing ${field}`, text: enc.encode(edited(rng, field, value)), kinds: ['missing_field'] };
  },
  (rng) => ({ what: 'empty object', text: enc.encode(`{${space(rng)}}`), kinds: ['missing_field'] }),
  (rng) => ({ what: 'not an object', text: enc.encode(pick(rng, ['[1, 2]', '"text"', '42', 'null', 'true', '1e400', '[]'])), kinds: ['not_object'] }),
  (rng) => {
    const d = 1 + rng.int(20_000);
    return pick(rng, [
      { what: 'deep array', text: enc.encode(`${'['.repeat(d)}${']'.repeat(d)}`), kinds: ['not_object'] as const },
      { what: 'deep question', text: enc.encode(edited(rng, 'question', deep(d))), kinds: ['wrong_type'] as const },
      { what: 'deep, unterminated', text: enc.encode('{"a":'.repeat(d)), kinds: ['invalid_json'] as const },
    ]);
  },
  (rng) => {
    // A raw NUL byte inside a string (JSON forbids control characters there) or outside one.
    const text = edited(rng, 'gen_text', undefined).replace(/^\s*\{/, '{"gen_text": "a');
    return pick(rng, [
      { what: 'raw NUL in a string', text: bytes(text.slice(0, 15), [0x00], text.slice(15)), kinds: ['invalid_json'] as const },
      { what: 'raw NUL outside strings', text: bytes('{', [0x00], '}'), kinds: ['invalid_json'] as const },
    ]);
  },
  () => ({ what: 'lone surrogate outside a string', text: bytes('{"question": ', [0xed, 0xa0, 0x80], '}'), kinds: ['invalid_json'] }),
  (rng) => {
    const one = () => render(rng, recordFields(rng, pick(rng, QUESTIONS), 'g', '1')).trim();
    return { what: 'BOM mid-line (two files joined)', text: enc.encode(`${one()}\uFEFF${one()}`), kinds: ['invalid_json'], reason: /byte-order mark U\+FEFF/ };
  },
  (rng, usedIds) => {
    if (usedIds.length === 0) return { what: 'not an object', text: enc.encode('[]'), kinds: ['not_object'] };
    const q = pick(rng, usedIds);
    const fields = recordFields(rng, { ...q, text: `${q.text} (reworded)` }, 'g', '1');
    return {
      what: 'question_id reused with another question',
      text: enc.encode(render(rng, fields)),
      kinds: ['conflicting_question'],
      reason: /was first used on line \d+ with another question/,
    };
  },
];

function blank(rng: Rng): Spec {
  return { type: 'blank', text: enc.encode(pick(rng, ['', ' ', '\t \t', '\uFEFF', '\u00a0'])) };
}

/** `n` lines, about 85% bad, 10% valid, 5% blank; ids are only reused with another text after their first valid line. */
function lines(rng: Rng, n: number, validShare = 0.1): Spec[] {
  const usedIds: Array<(typeof QUESTIONS)[number]> = [];
  return Array.from({ length: n }, () => {
    const r = rng.next();
    if (r < validShare) {
      const v = valid(rng);
      const q = QUESTIONS.find((x) => x.text === (v.type === 'valid' ? v.question : ''))!;
      if (q.id !== null && !usedIds.includes(q)) usedIds.push(q);
      return v;
    }
    if (r < validShare + 0.05) return blank(rng);
    return { type: 'bad', ...pick(rng, BAD)(rng, usedIds) };
  });
}

/** Joins lines with LF, CRLF or a mix, with or without a final newline (never ending on an empty line without one: it would not be a line). */
function file(rng: Rng, specs: Spec[]): Uint8Array {
  const style = rng.int(3);
  const parts: Uint8Array[] = [];
  specs.forEach((s, i) => {
    parts.push(s.text);
    const last = i === specs.length - 1;
    if (last && s.text.length > 0 && rng.int(2)) return;
    parts.push(enc.encode(style === 0 || (style === 2 && rng.int(2)) ? '\n' : '\r\n'));
  });
  return bytes(...parts.map((p) => Array.from(p)));
}

interface Tally {
  lines: number;
  bad: number;
  valid: number;
  blank: number;
  invalidUtf8: number;
  byKind: Map<string, number>;
}

/** Every bad line reported with its number, a reason and an allowed kind; every valid line kept; blanks counted. */
function check(specs: Spec[], report: Dataset['report'], groups: Dataset['groups'] | null, tally: Tally): void {
  const bad = specs.flatMap((s, i) => (s.type === 'bad' ? [{ line: i + 1, s }] : []));
  expect(report.errors.map((e) => e.line)).toEqual(bad.map((b) => b.line));
  report.errors.forEach((e, k) => {
    const { s } = bad[k];
    const msg = lineErrorMessage(e);
    expect(s.kinds, `line ${e.line} (${s.what}): ${msg}`).toContain(e.kind);
    expect(msg.startsWith(`line ${e.line}, `)).toBe(true);
    expect(e.reason.length, msg).toBeGreaterThan(5);
    expect(e.reason.length, msg).toBeLessThan(400);
    if (s.reason) expect(e.reason, `line ${e.line} (${s.what})`).toMatch(s.reason);
    tally.byKind.set(e.kind, (tally.byKind.get(e.kind) ?? 0) + 1);
  });
  expect(report.linesRead).toBe(specs.length);
  expect(report.blank).toBe(specs.filter((s) => s.type === 'blank').length);
  expect(report.accepted + report.rejected + report.blank).toBe(report.linesRead);
  const kept = new Map((groups ?? []).flatMap((g) => g.candidates.map((c) => [c.line, { g, c }] as const)));
  specs.forEach((s, i) => {
    if (s.type !== 'valid') return;
    const got = kept.get(i + 1);
    expect(got, `valid line ${i + 1} was not kept`).toBeDefined();
    expect([got!.g.question, got!.g.questionId, got!.c.genText, got!.c.label]).toEqual([s.question, s.questionId, s.genText, s.label]);
  });
  expect(kept.size).toBe(specs.filter((s) => s.type === 'valid').length);
  tally.lines += specs.length;
  tally.bad += bad.length;
  tally.valid += kept.size;
  tally.blank += report.blank;
  tally.invalidUtf8 += report.invalidUtf8Lines;
}

async function ingestChecked(rng: Rng, specs: Spec[], tally: Tally): Promise<void> {
  const data = file(rng, specs);
  const chunk = pick(rng, [7, 64, 1000, 65_536]);
  const hasValid = specs.some((s) => s.type === 'valid');
  try {
    const ds = await readDataset(bytesStream(data, chunk));
    expect(hasValid).toBe(true);
    check(specs, ds.report, ds.groups, tally);
  } catch (e) {
    // The only error allowed out of the ingest: a file with no valid line, carrying its full report.
    if (!(e instanceof NoValidLinesError) || hasValid) throw e;
    check(specs, e.report, null, tally);
  }
}

describe('ingest fuzz (seeded)', () => {
  it('reports every one of ≥ 10,000 generated bad lines with its number and reason, and keeps every valid line', async () => {
    const rng = createRng(20_240_601);
    const tally: Tally = { lines: 0, bad: 0, valid: 0, blank: 0, invalidUtf8: 0, byKind: new Map() };
    for (let f = 0; f < 30; f++) await ingestChecked(rng, lines(rng, 400), tally);
    // Files with no valid line at all end in the typed error, with the same report.
    for (let f = 0; f < 5; f++) await ingestChecked(rng, lines(rng, 40, 0), tally);
    expect(tally.bad).toBeGreaterThanOrEqual(10_000);
    expect([...tally.byKind.keys()].sort()).toEqual(
      ['bad_label', 'conflicting_question', 'empty_question', 'invalid_json', 'missing_field', 'not_object', 'wrong_type'].sort(),
    );
    console.info(
      `ingest fuzz: ${tally.lines} lines (${tally.bad} bad, ${tally.valid} valid, ${tally.blank} blank; ${tally.invalidUtf8} with invalid UTF-8) in 35 files; rejections by kind: ${JSON.stringify(Object.fromEntries(tally.byKind))}`,
    );
  });

  it('skips a 10 MB line without buffering it and goes on, in a file without a final newline', async () => {
    const rng = createRng(7);
    const tally: Tally = { lines: 0, bad: 0, valid: 0, blank: 0, invalidUtf8: 0, byKind: new Map() };
    const huge: Spec = {
      type: 'bad',
      what: '10 MB line',
      text: enc.encode(`{"question": "Q", "gen_text": "${'x'.repeat(10 * 2 ** 20)}", "label": 1}`),
      kinds: ['line_too_long'],
      reason: /^line too long: 10485\d\d\d bytes \(limit 8388608\)$/,
    };
    const specs = [...lines(rng, 20, 0.5), huge, ...lines(rng, 20, 0.5), valid(rng)];
    await ingestChecked(rng, specs, tally);
    expect(tally.byKind.get('line_too_long')).toBe(1);
  });
});
