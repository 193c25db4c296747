/**
 * Writes python/tests/golden/answers.json: the answer rules' cases, read by src/engine/data/answers/answersGolden.test.ts
 * and python/tests/test_answers.py so both sides give the same extractions, keys, equalities and vote classes.
 * - Hand-written cases (answers_golden_cases.ts, answers_golden_equality.ts) carry the value a grader expects,
 *   written there, not computed; this script refuses to write the file while the app disagrees with one of them.
 * - Real model outputs from the shared GSM8K files carry the app's own result, so python/ must match it.
 * Regenerate after changing the answer rules (the model outputs come from the data files named; the public
 * sample when none is):
 *   node python/scripts/make_golden.mjs answers /work/shared/data/gsm8k_gpt3_openai_4cand.jsonl /work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { classKeys } from '../../src/engine/data/answers/answerClasses.ts';
import { answersEqual } from '../../src/engine/data/answers/answerEquality.ts';
import { answerKey, candidateAnswerKey, candidateMatchesGold, extractAnswer, goldAnswerKey } from '../../src/engine/data/answers/answers.ts';
import { createRng } from '../../src/engine/shared/rng.ts';
import { EXTRACT, KEY, SAME } from './answers_golden_cases.ts';
import { CLASSES, DIFFERENT, EQUAL, GOLD, MATCHES } from './answers_golden_equality.ts';

const [outPath, ...dataPaths] = process.argv.slice(2);
const keyOf = (a: string | null): string | null => (a === null ? null : answerKey(a));

/** For each answer, the index of the first answer of its vote class (-1 without an answer). */
export function classIndices(answers: Array<string | null>): number[] {
  const classes = classKeys(answers.map(keyOf));
  return classes.map((c) => (c === null ? -1 : classes.indexOf(c)));
}

// Every claim above is checked here before anything is written: the hand-written expectations are the spec.
const failures: string[] = [];
for (const [t, want] of EXTRACT)
  if (extractAnswer(t) !== want) failures.push(`extract ${JSON.stringify(t)}: ${JSON.stringify(extractAnswer(t))}, want ${JSON.stringify(want)}`);
for (const [t, want] of KEY)
  if (answerKey(t) !== want) failures.push(`key ${JSON.stringify(t)}: ${JSON.stringify(answerKey(t))}, want ${JSON.stringify(want)}`);
for (const same of SAME) {
  const keys = same.map((t) => answerKey(t));
  if (new Set(keys).size !== 1 || keys[0] === null) failures.push(`same ${JSON.stringify(same)}: ${JSON.stringify(keys)}`);
}
for (const [a, b] of DIFFERENT) if (answersEqual(answerKey(a), answerKey(b))) failures.push(`different ${a} / ${b}: equal (${answerKey(a)}, ${answerKey(b)})`);
for (const equal of EQUAL) {
  for (const b of equal.slice(1))
    if (!answersEqual(answerKey(equal[0]), answerKey(b))) failures.push(`equal ${equal[0]} / ${b}: ${answerKey(equal[0])}, ${answerKey(b)}`);
}
for (const [g, want] of GOLD)
  if (goldAnswerKey(g) !== want) failures.push(`gold ${JSON.stringify(g)}: ${JSON.stringify(goldAnswerKey(g))}, want ${JSON.stringify(want)}`);
for (const [field, text, gold, want] of MATCHES) {
  const got = candidateMatchesGold(field, text, gold);
  if (got !== want) failures.push(`matches ${JSON.stringify([field, text, gold])}: ${got}, want ${want}`);
}
for (const [answers, want] of CLASSES) {
  const got = classIndices(answers);
  if (got.join() !== want.join()) failures.push(`classes ${JSON.stringify(answers)}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}

// Real model outputs: every line where the text's answer and the line's `answer` field disagree, and a seeded
// sample of the rest; every distinct `answer` field and gold; and the vote classes of every question where an
// answer joins another with a different key, with a seeded sample of those whose keys are not all numbers.
interface Line {
  gen_text: string;
  question_id: string;
  answer?: string | number | null;
  gold?: string | number | null;
}
const rng = createRng(32);
const real: Array<[string, string | null, string | null]> = [];
const fields = new Set<string>();
const realClasses: Array<[Array<string | null>, Array<string | null>]> = [];
const NUMBER_KEY = /^-?\d+(?:\.\d+)?(?:\/\d+)?$/;
for (const path of dataPaths) {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
  const questions = new Map<string, Array<string | null>>();
  for (const r of lines) {
    for (const v of [r.answer, r.gold]) if (v !== undefined && v !== null) fields.add(String(v));
    const extracted = extractAnswer(r.gen_text);
    const key = extracted === null ? null : answerKey(extracted);
    const field = r.answer === undefined || r.answer === null ? null : String(r.answer);
    const disagrees = field !== null && answerKey(field) !== key;
    if (disagrees || rng.next() < 150 / lines.length) real.push([r.gen_text, extracted, key]);
    if (!questions.has(r.question_id)) questions.set(r.question_id, []);
    questions.get(r.question_id)!.push(candidateAnswerKey(field, r.gen_text));
  }
  for (const keys of questions.values()) {
    const classes = classKeys(keys);
    const joined = classes.some((c, i) => c !== keys[i]);
    const words = keys.some((k) => k !== null && !NUMBER_KEY.test(k));
    if (joined || (words && rng.next() < 0.25)) realClasses.push([keys, classes]);
  }
}

const out = {
  note: 'Generated by python/scripts/make_golden.mjs answers from the app TypeScript; hand cases are in python/scripts/answers_golden_cases.ts and answers_golden_equality.ts.',
  extract: EXTRACT,
  key: KEY,
  same: SAME,
  different: DIFFERENT,
  equal: EQUAL,
  gold: GOLD,
  matches: MATCHES,
  classes: CLASSES,
  real,
  realAnswerFields: [...fields].sort().map((f) => [f, answerKey(f)]),
  realClasses,
};
writeFileSync(outPath, JSON.stringify(out, null, 0) + '\n');
const hand = EXTRACT.length + KEY.length + SAME.flat().length + DIFFERENT.length + EQUAL.flat().length + GOLD.length + MATCHES.length + CLASSES.length;
console.log(`wrote ${outPath}: ${hand} hand cases, ${real.length} model outputs, ${fields.size} answer fields, ${realClasses.length} questions' vote classes`);
