/**
 * The selection report under no signal at all: random energies (a verifier that knows nothing) on random
 * groups of held-out-sized question sets of the shared files, many times, and how often the report still
 * claims something. Files without `source` (the generator votes are then majority vote, so only the energy
 * could carry signal). Prints each rate with its 95% Monte-Carlo (Wilson) interval:
 * - a rule other than majority vote recommended (target ≤ 5%);
 * - any rule called a real gain; each rule called real either way;
 * - the stated verifier gain (bestVerifier): its mean (target ≤ 0.5 points) and how often its lower end is above −1;
 * - the selector's and the fitted vote's intervals: how often they exclude 0, and their coverage of the rule's
 *   expected difference to majority vote under no signal (the mean over the runs; target 93–97%);
 * - the length check calling a lean real (target ≤ 5%; lengths in characters: under random energies only
 *   their order matters);
 * - the exact test on m differing questions decided by a fair coin (m = 4, 8): how often it says real.
 *
 *   npm run bench -- nullcheck [--runs 200] [--questions 145] [--data FILE …] [--seed 1]
 */
import { readFileSync } from 'node:fs';
import { createRng } from '../engine/shared/rng.ts';
import { bytesStream, readDataset } from '../engine/data/testing/node.ts';
import { hasBothLabels } from '../engine/metrics/heldOut.ts';
import { lengthBias } from '../engine/metrics/lengthBias/lengthBias.ts';
import { signFlipTest } from '../engine/metrics/pairedTest.ts';
import { BASELINE_RULE, FITTED_RULES, RULE_NAMES } from '../engine/metrics/rules.ts';
import { selectionReport } from '../engine/metrics/selection.ts';
import type { ScoredGroup } from '../engine/metrics/summary.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const files = argv.flatMap((a, i) => (argv[i - 1] === '--data' ? [a] : []));
const DATA = files.length > 0 ? files : ['/work/shared/data/gsm8k_gpt3_openai_4cand.jsonl', '/work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl'];
const RUNS = Number(opt('runs', '200'));
const QUESTIONS = Number(opt('questions', '145'));
const SEED = Number(opt('seed', '1'));

/** Wilson's 95% interval of k successes in n. */
function wilson(k: number, n: number): string {
  const z = 1.96;
  const p = k / n;
  const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return `${(100 * p).toFixed(1)}% [${(100 * (c - h)).toFixed(1)}, ${(100 * (c + h)).toFixed(1)}] (${k}/${n})`;
}

/** Questions with both labels, energies to be drawn; lengths in characters. */
async function questionsOf(path: string): Promise<Array<Omit<ScoredGroup, 'energies'>>> {
  const ds = await readDataset(bytesStream(readFileSync(path)));
  return ds.groups
    .map((g) => ({
      labels: g.candidates.map((c) => c.label),
      answers: g.candidates.map((c) => c.answerKey),
      lengths: g.candidates.map((c) => c.genText.length),
    }))
    .filter((g) => hasBothLabels({ ...g, energies: g.labels }));
}

function fairCoinRate(m: number, trials: number, seed: number): number {
  const rng = createRng(seed);
  let real = 0;
  for (let t = 0; t < trials; t++) real += signFlipTest(Array.from({ length: m }, () => (rng.int(2) === 0 ? 1 : -1))).p < 0.05 ? 1 : 0;
  return real;
}

for (const path of DATA) {
  const pool = await questionsOf(path);
  const rng = createRng(SEED);
  const count = { recommended: 0, anyRealGain: 0, bestLowAboveMinus1: 0, lengthReal: 0 };
  const realByRule = new Map<string, number>();
  let bestGainSum = 0;
  // The fitted rules' differences to majority vote, run by run (their intervals add further cross-fits' spread: repeatedCrossFit.ts).
  const fitted = new Map(FITTED_RULES.map((rule) => [rule, [] as Array<{ diff: number; lo: number; hi: number }>]));
  const t0 = performance.now();
  for (let run = 0; run < RUNS; run++) {
    const picked = new Set<number>();
    while (picked.size < Math.min(QUESTIONS, pool.length)) picked.add(rng.int(pool.length));
    const groups: ScoredGroup[] = [...picked].map((q) => ({ ...pool[q], energies: Array.from(pool[q].labels, () => rng.next()) }));
    const r = selectionReport(groups, { seed: run + 1 });
    if (r.recommended.rule !== BASELINE_RULE) count.recommended++;
    if (r.versusMajority.some((v) => v.real && v.diff > 0)) count.anyRealGain++;
    for (const v of r.versusMajority) if (v.real) realByRule.set(v.rule, (realByRule.get(v.rule) ?? 0) + 1);
    for (const [rule, runs] of fitted) {
      const v = r.versusMajority.find((x) => x.rule === rule);
      if (v) runs.push({ diff: v.diff, lo: v.ci.lo, hi: v.ci.hi });
    }
    bestGainSum += r.bestVerifier?.diff ?? 0;
    if (r.bestVerifier && r.bestVerifier.ci.lo > -0.01) count.bestLowAboveMinus1++;
    if (lengthBias(groups, { seed: run + 1, figuresOver: 'bothLabels' }).real) count.lengthReal++;
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `\n${path}: ${RUNS} runs of ${Math.min(QUESTIONS, pool.length)} questions with both labels (of ${pool.length}), random energies, no source; ${seconds.toFixed(0)} s`,
  );
  console.log(`  a rule other than majority vote recommended: ${wilson(count.recommended, RUNS)}   (target ≤ 5%)`);
  console.log(`  any rule called a real gain:                  ${wilson(count.anyRealGain, RUNS)}`);
  for (const [rule, k] of realByRule) console.log(`    ${rule} called real (either way): ${wilson(k, RUNS)}`);
  console.log(`  stated verifier gain, mean: ${(100 * (bestGainSum / RUNS)).toFixed(2)} points   (target ≤ 0.5)`);
  console.log(`  its lower end above −1 point:                 ${wilson(count.bestLowAboveMinus1, RUNS)}`);
  for (const [rule, runs] of fitted) {
    const excludes0 = runs.filter((x) => x.lo > 0 || x.hi < 0).length;
    console.log(`  ${RULE_NAMES[rule]}: its interval excludes 0: ${wilson(excludes0, runs.length)}   (target 3–7%)`);
    const truth = runs.reduce((a, x) => a + x.diff, 0) / runs.length;
    const covered = runs.filter((x) => x.lo <= truth && truth <= x.hi).length;
    console.log(
      `  ${RULE_NAMES[rule]}: its interval covers its expected difference (${(100 * truth).toFixed(2)} points): ${wilson(covered, runs.length)}   (target 93–97%)`,
    );
  }
  console.log(`  length check calls a lean real:               ${wilson(count.lengthReal, RUNS)}   (target ≤ 5%)`);
}
for (const m of [4, 8]) console.log(`exact test, ${m} differing questions decided by a fair coin, called real: ${wilson(fairCoinRate(m, 10_000, 7), 10_000)}`);
