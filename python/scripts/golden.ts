/**
 * Writes python/tests/golden/app_rules.json: what the app's own TypeScript computes for the data rules the
 * Python package mirrors (answers, line validation, ingest, split, training order, metrics, JS number
 * formatting, model inputs). The Python tests compare against it. Regenerate after changing those rules:
 *   node python/scripts/make_golden.mjs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { answerKey, candidateAnswerKey, extractAnswer } from '../../src/engine/data/answers/answers.ts';
import { readDataset } from '../../src/engine/data/testing/node.ts';
import type { Dataset } from '../../src/engine/data/types.ts';

/** A dataset's fields eorm.formats.jsonl's Dataset has too (the format and label source are the formats golden's). */
const comparedFields = ({ groups, candidateCount, report }: Dataset) => ({ groups, candidateCount, report });
import { parseCandidateLine } from '../../src/engine/data/record.ts';
import { createRng, mixSeed, shuffleInPlace } from '../../src/engine/shared/rng.ts';
import { splitGroups } from '../../src/engine/data/split.ts';
import { tokenizeChunk } from '../../src/engine/data/tokenize/tokenize.ts';
import { evaluateGroups, type ScoredGroup } from '../../src/engine/metrics/summary.ts';
import { energyHistogram } from '../../src/engine/metrics/histogram.ts';
import { bestOfNCurve } from '../../src/engine/metrics/ncurve.ts';
import { selectionReport } from '../../src/engine/metrics/selection.ts';
import { fitTemperature } from '../../src/engine/metrics/calibration/temperature.ts';
import { crossFitFolds } from '../../src/engine/metrics/folds.ts';

const [samplePath, outPath] = process.argv.slice(2);

/** JSON cannot hold NaN / ±Infinity: write them as strings. */
const enc = (v: unknown): unknown => {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, enc);
  if (Array.isArray(v)) return v.map(enc);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, enc(x)]));
  return v;
};

const streamOf = (text: string | Uint8Array, chunk = 7) => {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.slice(i, i + chunk));
      c.close();
    },
  });
};

const ANSWER_TEXTS = [
  'so $\\boxed{\\frac{1}{2}}$.',
  'first \\boxed{3}, then \\boxed{\\dfrac{\\sqrt{3}}{2}} done',
  '\\fbox{7} #### 8',
  '\\boxed{12 oops\n#### 13',
  '48/2 = 24\n#### 1,234',
  '#### 5\nrethink\n#### 6\nextra line',
  'So she makes 9 * 2 = 18. The answer is $18.',
  'The answer is 3.5. I hope it is correct.',
  'the final answer is: 42',
  'THE ANSWER IS 7',
  '16 - 3 - 4 = 9 eggs\n9 * 2 = 18\nA: 18',
  'A: 12\r\nmore',
  'x\u2028A: 5',
  'She has 3 cats and 1,200.50 dollars left.',
  'It drops to -4 degrees',
  'no digits here',
  '',
  '   ',
  '٣ apples',
  '12\u00a0',
  'answer is 5\n',
  'The answer is \ufeff9.',
  '\\boxed{}',
  '#### \n',
  'A:    ',
  'The answer is $1,000.00 and more',
  '5,6 and 7,890',
  '0.5.',
  'The answer is 1e3.',
  'A: x\u0085',
  '1,2345',
  '12,345,678.9',
];
const KEY_TEXTS = [
  '$1,000.00',
  '1000',
  '18 eggs',
  '0.50',
  '.5',
  '$18',
  '50%',
  '50\\%',
  '-1.8 billion',
  '\u22125',
  '-0',
  '007',
  '1,234,567',
  '1{,}000',
  '90^\\circ',
  '\\text{5 dollars}',
  `0.${'3'.repeat(40)}`,
  `0.${'3'.repeat(300)}`,
  '5,6',
  '3 hours and 20 minutes',
  '\\boxed{\\frac{1}{2}}',
  '$\\dfrac{1}{2}$',
  '\\tfrac12',
  '1/2',
  '-\\frac{3}{4}',
  '\\(x = 5\\)',
  '\\left( 3, \\frac{\\pi}{2} \\right)',
  '\\frac{\\sqrt{3}}{2}',
  "10+John's age",
  '  Monday. ',
  '',
  '  ',
  '$',
  '.',
  '1e5',
  '100000000000000000000000',
  '123456789012345678901',
  '0.000001',
  '0.0000001',
  '+5',
  '5.',
  '5 .',
  '18\n',
  '18\u00a0eggs',
  '18 eggs\n',
  '$$5$$',
  '\\[ 7 \\]',
  '\\boxed{8}\n',
  '1/0',
  '12°',
  '12 °C',
  '1'.repeat(400),
  'x\ufeff',
  '\u00a0 7 \u00a0',
];
const LINES = [
  '{"question":"Q","gen_text":"A","label":1}',
  '{"question":"Q","generated_full_text":"A","label":true}',
  '{"question":"Q","gen_text":"A","label":false}',
  '{"question":"Q","gen_text":"A","label":1.0}',
  '{"question":"Q","gen_text":"A","label":-0}',
  '{"question":"Q","gen_text":"A","label":2}',
  '{"question":"Q","gen_text":"A","label":"1"}',
  '{"question":"Q","gen_text":"A","label":null}',
  '{"question":"Q","gen_text":"A"}',
  '{"question":"Q","label":1}',
  '{"gen_text":"A","label":1}',
  '{"question":"  \\n","gen_text":"A","label":1}',
  '{"question":"\\ufeff","gen_text":"A","label":1}',
  '{"question":5,"gen_text":"A","label":1}',
  '{"question":"Q","gen_text":["A"],"label":1}',
  '{"question":"Q","gen_text":{"a":1},"label":1}',
  '{"question":"Q","gen_text":"A","label":1,"question_id":17}',
  '{"question":"Q","gen_text":"A","label":1,"question_id":1e21}',
  '{"question":"Q","gen_text":"A","label":1,"question_id":12345678901234567890}',
  '{"question":"Q","gen_text":"A","label":1,"question_id":"  "}',
  '{"question":"Q","gen_text":"A","label":1,"question_id":true}',
  '{"question":"Q","gen_text":"A","label":1,"answer":18.50}',
  '{"question":"Q","gen_text":"A","label":1,"answer":1e400}',
  '{"question":"Q","gen_text":"A","label":1,"source":5}',
  '{"question":"Q","gen_text":"A","label":1,"gold":null,"source":null}',
  '{"question":"Q","gen_text":"A","label":"' + 'x'.repeat(60) + '"}',
  '{"question":"Q","gen_text":"A","label":"' + '😀'.repeat(30) + '"}',
  '{"question":"Q","gen_text":"A","label":"a\\u0001\\n\\"b"}',
  '{"question":"Q","gen_text":"A","label":0.30000000000000004}',
  '{"question":"Q","gen_text":"A","label":1e-7}',
  '[1,2]',
  '"text"',
  '42',
  'null',
  'true',
  '{"question":"Q","gen_text":"A","label":1,"gen_text":5}',
  '{"__proto__":1,"question":"Q","gen_text":"A","label":1}',
];

// Nesting depth: JSON.parse reads any depth (V8's parser is iterative), so a deeply nested field the rules
// ignore does not reject its line. [template, open, inner, close]: the line is the template with "%" replaced
// by open × depth + inner + close × depth (the Python test builds the same lines).
const DEEP: Array<[string, string, string, string]> = [
  ['{"question":"Q","gen_text":"A","label":1,"x":%}', '[', '', ']'],
  ['{"question":"Q","gen_text":"A","label":1,"meta":%}', '{"a":', '1', '}'],
  ['{"question":%,"gen_text":"A","label":1}', '[', '', ']'],
  ['{"question":"Q","gen_text":"A","label":%}', '{"a":', 'null', '}'],
  ['{"question":"Q","gen_text":"A","label":1,"source":%}', '[', '"s"', ']'],
  ['%', '[', '', ']'],
  ['{"question":"Q","gen_text":"A","label":1,"x":%', '[', '', ']'],
  ['{"question":"Q","gen_text":"A","label":1,"x":%}', '[', '1,', ']'],
  ['{"question":"Q","gen_text":"A","label":1,"x":%}', '[', 'NaN', ']'],
];
const DEPTHS = [3_000, 100_000];
const deepLine = ([template, open, inner, close]: readonly string[], depth: number) =>
  template.replace('%', () => open.repeat(depth) + inner + close.repeat(depth));
// A file mixing deep lines with plain ones, each line as [template, open, inner, close, depth]: the same
// lines accepted on both sides, so the same groups and the same split.
const DEEP_FILE: Array<[string, string, string, string, number]> = Array.from({ length: 12 }, (_, i) => {
  const q = `Q${i % 5}`;
  if (i % 4 === 1) return [`{"question":"${q}","gen_text":"a${i}","label":${i % 2},"x":%}`, '[', '', ']', DEPTHS[(i >> 2) % 2]];
  if (i % 4 === 3) return [`{"question":%,"gen_text":"a${i}","label":1}`, '{"q":', '"x"', '}', 3_000];
  return [`{"question":"${q}","gen_text":"a${i}","label":${(i >> 1) % 2}}`, '', '', '', 0];
});
const deepFile = DEEP_FILE.map(([t, o, inner, c, depth]) => deepLine([t, o, inner, c], depth)).join('\n') + '\n';

const sampleText = readFileSync(samplePath, 'utf8');
const sampleLines = sampleText.split('\n').filter((l) => l.length > 0);
const sample = sampleLines.map((l) => JSON.parse(l) as { question: string; gen_text: string; answer?: string });

// A messy file: BOM, CRLF, blank lines, a U+FEFF mid-file, bad UTF-8, a last line without newline, ids vs text grouping.
const messyParts: Array<string | number[]> = [
  '\ufeff{"question":"Q1","gen_text":"a 1","label":1}\r\n',
  '\n',
  '   \t\n',
  '{"question":"Q1","gen_text":"a 2","label":0}\n',
  '{"question":"Q2","gen_text":"b","label":1,"question_id":"id:7"}\n',
  '\ufeff{"question":"Q3","gen_text":"c","label":0}\n',
  '{bad json\n',
  '{"question":"Q2","gen_text":"bb","label":0,"question_id":"id:7"}\n',
  '{"question":"Q1","gen_text":"x ',
  [0xff, 0xfe],
  ' y","label":1}\n',
  '{"question":"q:Q1","gen_text":"z","label":1,"question_id":"Q1"}\n',
  '{"question":"Q4","gen_text":"d","label":1}',
];
const messy = new Uint8Array(messyParts.flatMap((p) => (typeof p === 'string' ? Array.from(new TextEncoder().encode(p)) : p)));

async function main() {
  const messyDataset = await readDataset(streamOf(messy), { maxLineBytes: 200 });
  const longLine = await readDataset(streamOf(`{"question":"Q","gen_text":"${'x'.repeat(300)}","label":1}\n{"question":"Q","gen_text":"y","label":0}\n`), {
    maxLineBytes: 200,
  });
  const sampleDataset = await readDataset(streamOf(sampleText, 1 << 16));
  const deepDataset = await readDataset(streamOf(deepFile, 1 << 16));
  const deepLabels = deepDataset.groups.flatMap((g) => g.candidates.map((c) => c.label));
  const deepStart = [0];
  for (const g of deepDataset.groups) deepStart.push(deepStart[deepStart.length - 1] + g.candidates.length);
  const deepSplit = splitGroups({ labels: Uint8Array.from(deepLabels), groupStart: Uint32Array.from(deepStart) }, { seed: 7 });
  const labels = sampleDataset.groups.flatMap((g) => g.candidates.map((c) => c.label));
  const groupStart = [0];
  for (const g of sampleDataset.groups) groupStart.push(groupStart[groupStart.length - 1] + g.candidates.length);
  const view = { labels: Uint8Array.from(labels), groupStart: Uint32Array.from(groupStart) };
  const splits = Object.fromEntries([0, 1, 7, 42, 123456, 4294967295].map((seed) => [seed, splitGroups(view, { seed })]));
  const orders = Object.fromEntries(
    [1, 2, 3, 8].map((epoch) => {
      const order = Uint32Array.from(splits[42].train);
      shuffleInPlace(order, createRng(mixSeed(42, epoch)));
      return [epoch, Array.from(order)];
    }),
  );

  // Scored groups: random energies with ties, duplicates, NaN and ±Infinity, 1..9 candidates, answers with repeats and nulls.
  const rng = createRng(99);
  const groups: ScoredGroup[] = [];
  for (let g = 0; g < 120; g++) {
    const n = g === 0 ? 0 : 1 + rng.int(9);
    const energies: number[] = [];
    const labelsG: number[] = [];
    const answers: Array<string | null> = [];
    for (let i = 0; i < n; i++) {
      const r = rng.next();
      energies.push(g % 17 === 3 && i === 1 ? NaN : g % 23 === 5 && i === 0 ? Infinity : r < 0.2 ? Math.round(rng.next() * 3) : (rng.next() - 0.5) * 10);
      labelsG.push(rng.next() < 0.4 ? 1 : 0);
      answers.push(rng.next() < 0.15 ? null : String(rng.int(4)));
    }
    groups.push({ energies, labels: labelsG, answers });
  }
  const finiteGroups = groups.filter((g) => Array.from(g.energies).every((e) => Number.isFinite(e)));

  // Groups where energy tells right from wrong, for the temperature fit and the selection report: answer
  // "0" is right, lower energy when right, some labels flipped (answers with both labels), some answers
  // missing, some candidates duplicated (ties), 1..12 candidates.
  const informative = (seed: number, count: number): ScoredGroup[] => {
    const r = createRng(seed);
    return Array.from({ length: count }, () => {
      const n = 1 + r.int(12);
      const energies: number[] = [];
      const labelsG: number[] = [];
      const answers: Array<string | null> = [];
      for (let i = 0; i < n; i++) {
        if (i > 0 && r.next() < 0.1) {
          energies.push(energies[i - 1]);
          labelsG.push(labelsG[i - 1]);
          answers.push(answers[i - 1]);
          continue;
        }
        const a = r.int(4);
        const right = (a === 0) !== r.next() < 0.1;
        energies.push((right ? -1 : 0) + (r.next() - 0.5) * 3);
        labelsG.push(right ? 1 : 0);
        answers.push(r.next() < 0.1 ? null : String(a));
      }
      return { energies, labels: labelsG, answers };
    });
  };
  // Two fields the selector also reads: one that tells right from wrong (missing on some lines), one noise.
  const withFields: ScoredGroup[] = informative(8, 120).map((g, q) => {
    const r = createRng(100 + q);
    const told = Array.from(g.labels, (l, i) => ((q + i) % 9 === 4 ? NaN : 2 * l + r.next()));
    const noise = Array.from(g.labels, () => r.next() * 5);
    return { ...g, fields: [told, noise] };
  });
  const fitGroupsG = informative(5, 200);
  const reportGroups = informative(6, 150);
  const selection = {
    fit: fitGroupsG,
    report: reportGroups,
    temperature: fitTemperature(fitGroupsG),
    folds: Array.from(crossFitFolds(103, 42)),
    crossFitted: selectionReport(reportGroups, { seed: 42 }),
    noisy: selectionReport(groups, { seed: 7, resamples: 500 }),
    tooFew: selectionReport(finiteGroups.slice(0, 12), { seed: 3 }),
    fieldGroups: withFields,
    withFields: selectionReport(withFields, { seed: 11 }),
  };

  const tokens = tokenizeChunk({
    maxLen: 48,
    clsId: 50256,
    sepId: 50256,
    questions: sample.slice(0, 40).map((r) => r.question),
    groupSizes: sample.slice(0, 40).map(() => 1),
    genTexts: sample.slice(0, 40).map((r) => r.gen_text),
  });

  const numbers = [
    0,
    -0,
    1,
    -1,
    0.5,
    0.1 + 0.2,
    1e21,
    1e20,
    123456789012345680000,
    1e-6,
    1e-7,
    1.5e-7,
    123e-20,
    2 ** 53,
    2 ** 53 + 2,
    1 / 3,
    -1e300,
    5e-324,
    1.7976931348623157e308,
    18.5,
    100,
    1234.5678,
  ];

  const out = {
    note: 'Generated by python/scripts/make_golden.mjs from the app TypeScript; do not edit.',
    sample: { path: 'public/sample/gsm8k_gpt3_openai_4cand.jsonl', candidateAnswerKeys: sample.map((r) => candidateAnswerKey(r.answer ?? null, r.gen_text)) },
    extractAnswer: ANSWER_TEXTS.map((t) => [t, extractAnswer(t)]),
    answerKey: KEY_TEXTS.map((t) => [t, answerKey(t)]),
    lines: LINES.map((l, i) => [l, parseCandidateLine(l, i + 1)]),
    deepLines: DEEP.flatMap((d) => DEPTHS.map((depth) => [...d, depth, parseCandidateLine(deepLine(d, depth), 1)])),
    deepFile: {
      lines: DEEP_FILE,
      dataset: comparedFields(deepDataset),
      split: { seed: 7, train: Array.from(deepSplit.train), val: Array.from(deepSplit.val) },
    },
    messy: { bytes: Array.from(messy), dataset: comparedFields(messyDataset) },
    longLine: longLine.report,
    sampleGroups: { count: sampleDataset.groups.length, sizes: sampleDataset.groups.map((g) => g.candidates.length), labels },
    splits: Object.fromEntries(Object.entries(splits).map(([k, v]) => [k, { train: Array.from(v.train), val: Array.from(v.val) }])),
    trainOrder: orders,
    mixSeed: [
      [42, 1],
      [42, 8],
      [0, 0],
      [4294967295, 7],
      [42 ^ 0x5eed, 0],
      [42 ^ 0x5eed, 12345],
    ].map(([a, b]) => [a, b, mixSeed(a, b)]),
    rng: [0, 1, 42, 4294967295].map((seed) => {
      const r = createRng(seed);
      return [seed, Array.from({ length: 5 }, () => r.next())];
    }),
    metrics: {
      groups: groups.map((g) => ({ energies: g.energies, labels: g.labels, answers: g.answers })),
      summary: evaluateGroups(groups),
      summaryFinite: evaluateGroups(finiteGroups),
      histogram: energyHistogram(groups, 30),
      curve: bestOfNCurve(finiteGroups, { seed: 42, subsetsPerN: 8 }),
    },
    selection,
    tokens: { maxLen: 48, ids: Array.from({ length: 40 }, (_, i) => Array.from(tokens.tokens.subarray(tokens.offsets[i], tokens.offsets[i + 1]))) },
    numbers: numbers.map((n) => [n, String(n)]),
  };
  writeFileSync(outPath, JSON.stringify(enc(out)) + '\n');
  console.log(`wrote ${outPath}`);
}
void main();
