/**
 * Writes python/tests/golden/answers.json: the answer rules' cases, read by src/engine/data/answersGolden.test.ts
 * and python/tests/test_answers.py so both sides give the same extractions and keys.
 * - Hand-written cases (below) carry the value a grader expects, written here, not computed; the script
 *   refuses to write the file while the app disagrees with one of them.
 * - Real model outputs from the shared GSM8K files carry the app's own result, so python/ must match it.
 * Regenerate after changing the answer rules (the model outputs come from the data files named; the public
 * sample when none is):
 *   node python/scripts/make_golden.mjs answers [/work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl …]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { answerKey, extractAnswer, goldAnswerKey } from '../../src/engine/data/answers.ts';
import { createRng } from '../../src/engine/data/rng.ts';

const [outPath, ...dataPaths] = process.argv.slice(2);

/** [text, the answer a reader takes from it]. */
const EXTRACT: Array<[string, string | null]> = [
  // The table.
  ['So 56/3 it is.\nAnswer: 56/3', '56/3'],
  ['The loss is 40 dollars.\nAnswer: -$40', '-$40'],
  ['Half of 3/2 is $\\frac{3}{4}$', '\\frac{3}{4}'],
  ['So she makes 9 * 2 = 18. The answer is **18**.', '18'],
  // Precedence: \boxed > Answer:/JSON > "the answer is" > #### > last number, wherever each occurs.
  ['The answer is 5, I think.\nLet me recheck: 7.\nAnswer: 7', '7'],
  ['\\boxed{3} then Answer: 4', '3'],
  ['first \\boxed{3}, then \\boxed{\\dfrac{\\sqrt{3}}{2}} done', '\\dfrac{\\sqrt{3}}{2}'],
  ['\\fbox{7} #### 8', '7'],
  ['so $\\boxed {12}$.', '12'],
  ['\\boxed{\\{1, 2\\}}', '\\{1, 2\\}'],
  ['\\boxed{\\frac{a}{\\sqrt{b}}} is final', '\\frac{a}{\\sqrt{b}}'],
  ['\\boxed{\\boxed{5}}', '\\boxed{5}'],
  ['\\boxed{12 oops\n#### 13', '13'],
  ['\\boxed{4} and later \\boxed{unclosed', '4'],
  ['#### 10\nThe answer is 11.', '11'],
  ['48/2 = 24\n#### 1,234', '1,234'],
  ['#### 5\nrethink\n#### 6\nextra line', '6'],
  ['The answer is $18. Done.', '$18'],
  ['The answer is 3.5. I hope it is correct.', '3.5'],
  ['the final answer is: 42', '42'],
  ['THE ANSWER IS 7', '7'],
  ['so the answers are 3 and -2.', '3 and -2'],
  ['16 - 3 - 4 = 9 eggs\n9 * 2 = 18\nA: 18', '18'],
  ['A: 3\r\nA: 4\r\nA:   \r\n', '4'],
  ['  A:\t5 eggs \u2028more', '5 eggs'],
  ['xA: 6', '6'],
  ['Final answer: 12', '12'],
  ['**Final Answer:** 12', '12'],
  ['**Answer**: 12 apples', '12 apples'],
  ['### Final Answer\nnothing here: 5', '5'],
  ['**Final Answer:**\n\n\\(x = 3\\)', '\\(x = 3\\)'],
  ['- Answer: (B)', '(B)'],
  ['a: 5 is a label in running text; the total is 6', '6'],
  ['{"reasoning": "9*2", "answer": "18"}', '18'],
  ['{"answer": 18.5}', '18.5'],
  ['{"answer": "a\\"b"}', 'a"b'],
  ['{"answer": "1"}\nAnswer: 2', '2'],
  ['Answer: 2\n{"answer": "3"}', '3'],
  ['She has 3 cats and 1,200.50 dollars left.', '1,200.50'],
  ['It drops to -4 degrees', '-4'],
  ['she pays -$40 in total', '-$40'],
  ['the ratio is 56/3', '56/3'],
  ['so x = \\frac{5}{6}', '\\frac{5}{6}'],
  ['so x = \\dfrac56', '\\dfrac56'],
  ['no digits here', null],
  ['', null],
  ['\\boxed{}', null],
  ['#### \n', null],
  ['The answer is **18**', '18'],
  ['Answer: **$1,000**.', '$1,000'],
];

/** [answer, its key]. */
const KEY: Array<[string, string | null]> = [
  // The table.
  ['56/3', '56/3'], ['-$40', '-40'], ['\\frac{3}{4}', '0.75'], ['**18**', '18'],
  // Integers, decimals, signs, separators, currency, units, percent, degrees.
  ['18', '18'], ['+18', '18'], ['007', '7'], ['-0', '0'], ['18.0', '18'], ['18.50', '18.5'], ['.5', '0.5'], ['5.', '5'],
  ['1,234,567', '1234567'], ['1{,}000', '1000'], ['1\\,000', '1000'], ['5,6', '5,6'], ['$1,000.00', '1000'], ['\\$18', '18'],
  ['$-40', '-40'], ['-\\$40', '-40'], ['\u22125', '-5'], ['18 eggs', '18'], ['5 dollars/hour', '5'], ['5cm', '5'], ['3 m^2', '3'],
  ['50%', '50'], ['50\\%', '50'], ['50 percent', '50'], ['90^\\circ', '90'], ['90^{\\circ}', '90'], ['90°', '90'], ['90 degrees', '90'],
  ['\\text{5 dollars}', '5'], ['5 \\text{ cm}', '5'], ['\\mathrm{18}', '18'], ['\\textbf{18}', '18'], ['$18$', '18'], ['$$18$$', '18'],
  ['\\(18\\)', '18'], ['\\[ 18 \\]', '18'], ['\\boxed{18}', '18'], ['$\\boxed{18}$.', '18'], ['*18*', '18'], ['__18__', '18'], ['18.', '18'],
  ['x = 18', '18'], ['n=18', '18'], ['\\theta = 30^\\circ', '30'], ['x_1 = 2', '2'], ['9 * 2 = 18', '18'], ['Janet makes $18 every day', '18'],
  ['100000000000000000000000', '100000000000000000000000'], ['123456789012345678901', '123456789012345678901'],
  // Fractions in every spelling, mixed numbers, exact rationals; decimals of 3+ places stand for small fractions.
  ['\\frac{56}{3}', '56/3'], ['\\dfrac{56}{3}', '56/3'], ['\\tfrac{56}{3}', '56/3'], ['\\frac56', '5/6'], ['\\frac{112}{6}', '56/3'],
  ['-\\frac{3}{4}', '-0.75'], ['\\frac{-3}{4}', '-0.75'], ['-3/4', '-0.75'], ['3/4', '0.75'], ['0.75', '0.75'], ['\\frac{6}{8}', '0.75'],
  ['2\\frac{1}{2}', '2.5'], ['2 \\frac{1}{2}', '2.5'], ['2 1/2', '2.5'], ['1/3', '1/3'], ['0.333', '1/3'], ['0.3333', '1/3'], ['0.667', '2/3'],
  ['0.6666', '2/3'], ['0.33', '0.33'], ['0.001', '0.001'], ['1.001', '1.001'], ['0.334', '0.334'], ['3.142', '22/7'], ['3.1416', '3.1416'], ['12.333', '37/3'],
  [`0.${'3'.repeat(40)}`, '1/3'], ['1/0', '1/0'], ['\\frac{1}{0}', '1/0'],
  // Scientific notation and base subscripts.
  ['1.5e3', '1500'], ['1.5E-3', '0.0015'], ['1.5 \\times 10^{3}', '1500'], ['1.5\\cdot10^3', '1500'], ['2 \\times 10^{-2}', '0.02'],
  ['1011_2', '1011'], ['1011_{2}', '1011'], ['A3_{16}', 'A3_{16}'],
  // Radicals, pi, spacing, \left/\right.
  ['\\sqrt2', '\\sqrt{2}'], ['\\sqrt{2}', '\\sqrt{2}'], ['\\sqrt 2', '\\sqrt{2}'], ['2\\sqrt{3}', '2\\sqrt{3}'], ['2 \\sqrt 3', '2\\sqrt{3}'],
  ['\\sqrt[3]{2}', '\\sqrt[3]{2}'], ['\\pi/2', '\\pi/2'], ['\\frac{\\pi}{2}', '\\pi/2'], ['\\dfrac{\\pi}2', '\\pi/2'], ['π/2', '\\pi/2'],
  ['\\frac{\\sqrt{3}}{2}', '\\sqrt{3}/2'], ['\\frac{\\sqrt3}{2}', '\\sqrt{3}/2'], ['\\frac{1+\\sqrt{5}}{2}', '(1+\\sqrt{5})/2'],
  ['\\frac{2\\sqrt{3}}{3}', '2\\sqrt{3}/3'], ['\\frac{1}{2x}', '1/(2x)'], ['\\frac{1}{2}x', '1/2x'], ['x^{2}+1', 'x^2+1'], ['x^2 + 1', 'x^2+1'],
  ['x^{10}', 'x^{10}'], ['\\left( x+1 \\right)', 'x+1'], ['3\\!\\cdot\\!4', '3\\cdot4'], ['3x', '3x'], ['x', 'x'], ['X', 'X'],
  ['\\infty', '\\infty'], ['10+John\'s age', '10+John\'sage'], ['3x + 2y = 0', '3x+2y=0'], ['16 - 3 - 4 = 9 eggs', '9'],
  ['\\\\frac{1}{3}', '1/3'], ['2\\\\sqrt{7}', '2\\sqrt{7}'],
  // Tuples and intervals keep order; sets and lists of solutions do not.
  ['(1, 2)', '(1,2)'], ['(2, 1)', '(2,1)'], ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3,\\pi/2)'], ['(1,2]', '(1,2]'], ['[0, 0.5)', '[0,0.5)'],
  ['(-\\infty, 3]', '(-\\infty,3]'], ['(18)', '18'], ['\\{3, -2\\}', '-2,3'], ['\\{-2,3\\}', '-2,3'], ['-2, 3', '-2,3'], ['3, -2', '-2,3'],
  ['x=3 or x=-2', '-2,3'], ['x = 3, x = -2', '-2,3'], ['x=3 \\text{ or } x=-2', '-2,3'], ['x = 3 and x = -2', '-2,3'], ['3; -2', '-2,3'],
  ['(1,2),(3,4)', '(1,2),(3,4)'], ['(3,4),(1,2)', '(1,2),(3,4)'], ['(1,2)\\cup(3,4)', '(1,2)\\cup(3,4)'],
  ['3 hours and 20 minutes', '3hoursand20minutes'], ['3 or -2', '3or-2'],
  // Multiple-choice letters and text answers.
  ['(B)', 'B'], ['B', 'B'], ['\\text{(B)}', 'B'], ['(b)', 'B'], ['(B) 18', 'B'], ['B)', 'B'], ['b', 'b'],
  ['Monday', 'monday'], ['\\text{Monday}', 'monday'], ['  Monday. ', 'monday'], ['MONDAY', 'monday'], ['yes', 'yes'], ['New York', 'newyork'],
  // Nothing to key.
  ['', null], ['  ', null], [' $ $ ', null], ['.', null], ['$', '$'],
];

/** Answers that must share one key (a grader calls them equal). */
const SAME: string[][] = [
  ['56/3', '\\frac{56}{3}', '\\dfrac{56}{3}', '\\tfrac{56}{3}', '18\\frac{2}{3}', '18 2/3', '18.667', '18.6667'],
  ['\\frac{3}{4}', '0.75', '3/4', '\\frac34', '.75', '$\\frac{3}{4}$', '0.750'],
  ['-40', '-$40', '$-40', '-\\$40', '-40 dollars', '\u221240'],
  ['18', '**18**', '$18', '18.00', '\\boxed{18}', '18 eggs', 'x = 18', '\\text{18}', '$18.00$'],
  ['\\sqrt{2}', '\\sqrt2', '\\sqrt 2', '√2'],
  ['\\pi/2', '\\frac{\\pi}{2}', '\\frac\\pi2', '\\dfrac{\\pi}{2}'],
  ['(1,2)', '\\left(1, 2\\right)', '( 1 , 2 )'],
  ['-2, 3', 'x=3 or x=-2', '\\{3,-2\\}', '3, -2', 'x = -2, x = 3'],
  ['(B)', 'B', '\\text{(B)}', '\\textbf{(B)}'],
  ['Monday', 'monday', '\\text{Monday}', '\\textbf{MONDAY}'],
  ['1500', '1.5e3', '1.5 \\times 10^3', '1,500'],
];

/** Answers that must not share a key. */
const DIFFERENT: Array<[string, string]> = [
  ['56/3', '3'], ['-40', '40'], ['0.75', '4'], ['1/2', '2'], ['(1,2)', '(2,1)'], ['(1,2)', '[1,2]'], ['(1,2)', '1,2'], ['5,6', '56'],
  ['0.33', '1/3'], ['1.001', '1'], ['0.999', '1'], ['x', 'X'], ['3x', '3'], ['\\sqrt{2}', '2'], ['2\\sqrt{3}', '\\sqrt{6}'], ['\\pi', '3.14'],
  ['1/2x', '1/(2x)'], ['10', '1'], ['-0.5', '0.5'], ['1e3', '1e4'], ['3x + 2y = 0', 'x - y = 0'], ['3x + 2y = 0', '0'],
];

/** [gold answer, its key]: a bare answer as it is, a worked solution by its final answer. */
const GOLD: Array<[string, string | null]> = [
  ['18', '18'], ['Janet sells 16 - 3 - 4 = 9 eggs.\nShe makes 9 * 2 = $18.\n#### 18', '18'], ['\\frac{3}{4}', '0.75'],
  ['So the area is $\\boxed{\\frac{\\pi}{2}}$.', '\\pi/2'], ['1,000', '1000'], ['-40', '-40'], ['', null],
];

// Every claim above is checked here before anything is written: the hand-written expectations are the spec.
const failures: string[] = [];
for (const [t, want] of EXTRACT) if (extractAnswer(t) !== want) failures.push(`extract ${JSON.stringify(t)}: ${JSON.stringify(extractAnswer(t))}, want ${JSON.stringify(want)}`);
for (const [t, want] of KEY) if (answerKey(t) !== want) failures.push(`key ${JSON.stringify(t)}: ${JSON.stringify(answerKey(t))}, want ${JSON.stringify(want)}`);
for (const same of SAME) {
  const keys = same.map((t) => answerKey(t));
  if (new Set(keys).size !== 1 || keys[0] === null) failures.push(`same ${JSON.stringify(same)}: ${JSON.stringify(keys)}`);
}
for (const [a, b] of DIFFERENT) if (answerKey(a) === answerKey(b)) failures.push(`different ${a} / ${b}: both ${answerKey(a)}`);
for (const [g, want] of GOLD) if (goldAnswerKey(g) !== want) failures.push(`gold ${JSON.stringify(g)}: ${JSON.stringify(goldAnswerKey(g))}, want ${JSON.stringify(want)}`);
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}

// Real model outputs: every line where the text's answer and the line's `answer` field disagree, and a seeded
// sample of the rest; every distinct `answer` field and gold.
interface Line {
  gen_text: string;
  answer?: string | number | null;
  gold?: string | number | null;
}
const rng = createRng(32);
const real: Array<[string, string | null, string | null]> = [];
const fields = new Set<string>();
for (const path of dataPaths) {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line);
  for (const r of lines) {
    for (const v of [r.answer, r.gold]) if (v !== undefined && v !== null) fields.add(String(v));
    const extracted = extractAnswer(r.gen_text);
    const key = extracted === null ? null : answerKey(extracted);
    const disagrees = r.answer !== undefined && r.answer !== null && answerKey(String(r.answer)) !== key;
    if (disagrees || rng.next() < 150 / lines.length) real.push([r.gen_text, extracted, key]);
  }
}

const out = {
  note: 'Generated by python/scripts/make_golden.mjs answers from the app TypeScript; hand cases are in python/scripts/answers_golden.ts.',
  extract: EXTRACT,
  key: KEY,
  same: SAME,
  different: DIFFERENT,
  gold: GOLD,
  real,
  realAnswerFields: [...fields].sort().map((f) => [f, answerKey(f)]),
};
writeFileSync(outPath, JSON.stringify(out, null, 0) + '\n');
console.log(`wrote ${outPath}: ${EXTRACT.length + KEY.length + SAME.flat().length + DIFFERENT.length * 2 + GOLD.length} hand cases, ${real.length} model outputs, ${fields.size} answer fields`);
