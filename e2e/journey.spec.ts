import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors, sampleSlice } from './helpers.ts';

const QUESTION =
  "Janet’s ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?";
const CANDIDATES = [
  'She uses 3 + 4 = 7 eggs, so 16 - 7 = 9 are sold for 9 * 2 = $18.\nA: 18',
  'She sells 16 - 3 = 13 eggs at $2, so 26 dollars.\nA: 26',
  'Eggs left: 16 - 4 = 12, money: 12 * 2 = 24.\nA: 24',
].join('\n---\n');

/** An attribute read as a number; missing or empty fails (Number(null) and Number('') would both read 0). */
function numberAttr(raw: string | null, what: string): number {
  expect(raw ?? '', `${what} is missing or empty`).toMatch(/\S/);
  const v = Number(raw);
  expect(Number.isFinite(v), `${what} = ${JSON.stringify(raw)} is not a number`).toBe(true);
  return v;
}

/** Pastes the three candidates, reranks, and returns energy by pasted position. */
async function rerank(page: Page): Promise<Map<number, number>> {
  await page.getByTestId('rerank-question').fill(QUESTION);
  await page.getByTestId('rerank-candidates').fill(CANDIDATES);
  await page.getByTestId('rerank-run').click();
  const rows = page.getByTestId('ranked-candidate');
  await expect(rows).toHaveCount(3, { timeout: 120_000 });
  const out = new Map<number, number>();
  const energies: number[] = [];
  for (const row of await rows.all()) {
    const e = numberAttr(await row.getAttribute('data-energy'), 'data-energy');
    out.set(numberAttr(await row.getAttribute('data-index'), 'data-index'), e);
    energies.push(e);
  }
  expect([...out.keys()].sort()).toEqual([0, 1, 2]);
  expect(energies).toEqual([...energies].sort((a, b) => a - b));
  // Grouped by final answer (three different ones), each with its probability of being right (the map the
  // validation fitted on held-out questions: a vote share, Platt's map of it, or the selector's), one pick.
  const answers = page.getByTestId('answer-row');
  await expect(answers).toHaveCount(3);
  const probabilities = (await answers.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-probability')))).map((p) =>
    numberAttr(p, 'data-probability'),
  );
  for (const p of probabilities) expect(p >= 0 && p <= 1, String(p)).toBe(true);
  await expect(page.locator('[data-testid="answer-row"][data-picked="true"]')).toHaveCount(1);
  expect((await answers.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-answer')))).sort()).toEqual(['18', '24', '26']);
  return out;
}

test('load a slice of the sample, train the tiny preset on the probed backend, inspect, which rule to trust, rerank by answer, why this energy, export run and weights, reload, import, same energies', async ({
  page,
}, info) => {
  test.setTimeout(12 * 60_000);
  const errors = collectConsoleErrors(page);
  await page.goto('/');
  // The start-up probe picks the backend (WASM here, beside a software WebGPU adapter) and says why.
  const backend = page.getByTestId('backend');
  await expect(backend).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  await expect(backend).toHaveAttribute('data-reason', /faster than|only backend/);
  const trainedOn = (await backend.getAttribute('data-backend'))!;

  // 32 questions of the sample, 18 with both labels. The default split holds out a share of all 32 questions
  // and trains on those with both labels among the rest.
  await page.getByTestId('dataset-input').setInputFiles({ name: 'sample-slice.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(sampleSlice(32)) });
  const summary = page.getByTestId('dataset-summary');
  await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-groups', '32');
  await expect(summary).toHaveAttribute('data-trainable-groups', '18');

  // The tiny preset, inputs cut at 64 tokens, two groups per step: 5 epochs of 8 steps (at lr 0.01 the last
  // epoch's loss is below the first's).
  await page.getByTestId('preset').selectOption('tiny');
  await page.getByTestId('cfg-max-len').fill('64');
  await page.getByTestId('cfg-epochs').fill('5');
  await page.getByTestId('cfg-lr').fill('0.01');
  await page.getByTestId('cfg-seed').fill('7');
  await page.getByTestId('cfg-groups-per-step').fill('2');
  await page.getByTestId('train-start').click();
  const status = page.getByTestId('train-status');
  await expect(status).toHaveAttribute('data-state', /compiling|training/);
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 9 * 60_000 });
  await expect(status).toHaveAttribute('data-step', '40');
  // Throughput of the run, in real tokens (the automation contract other tools read).
  expect(numberAttr(await status.getAttribute('data-tokens-per-sec'), 'data-tokens-per-sec')).toBeGreaterThan(0);
  expect(numberAttr(await status.getAttribute('data-steps-per-sec'), 'data-steps-per-sec')).toBeGreaterThan(0);

  // Loss chart has points; the last epoch's mean loss is below the first's.
  const lossChart = page.getByTestId('chart-loss');
  await expect(lossChart).toHaveAttribute('data-points', '40');
  const metrics = page.getByTestId('metrics');
  const epochLosses = JSON.parse((await metrics.getAttribute('data-epoch-losses')) ?? '[]') as number[];
  expect(epochLosses).toHaveLength(5);
  expect(epochLosses[4]).toBeLessThan(epochLosses[0]);
  // Validation metrics and baselines are there, as numbers in [0, 1].
  for (const attr of ['data-val-bon', 'data-val-pairwise', 'data-best-val-bon', 'data-first', 'data-majority', 'data-oracle']) {
    const v = numberAttr(await metrics.getAttribute(attr), attr);
    expect(v, attr).toBeGreaterThanOrEqual(0);
    expect(v, attr).toBeLessThanOrEqual(1);
  }
  await info.attach('epoch-losses.json', { body: JSON.stringify(epochLosses), contentType: 'application/json' });

  // Which rule to trust: the selected model's latest evaluation, each rule with its interval, and calibration.
  const evalSummary = page.getByTestId('eval-summary');
  for (const attr of ['data-best-of-n', 'data-majority', 'data-weighted-vote', 'data-ece', 'data-ece-raw', 'data-brier']) {
    const v = numberAttr(await evalSummary.getAttribute(attr), attr);
    expect(v, attr).toBeGreaterThanOrEqual(0);
    expect(v, attr).toBeLessThanOrEqual(1);
  }
  expect(numberAttr(await evalSummary.getAttribute('data-temperature'), 'data-temperature')).toBeGreaterThan(0);
  // Calibration cross-fitted over the held-out questions ("k-fold:5"), or "none: <why>" with too few of them.
  await expect(evalSummary).toHaveAttribute('data-calibration', /^(k-fold:5|none: .+)$/);
  expect(numberAttr(await evalSummary.getAttribute('data-log-loss'), 'data-log-loss')).toBeGreaterThanOrEqual(0);
  await expect(evalSummary).toHaveAttribute('data-best-verifier-rule', /^(bestOfN|weightedVote|weightedVoteRaw|selector)$/);
  const gain = numberAttr(await evalSummary.getAttribute('data-best-verifier-gain'), 'data-best-verifier-gain');
  expect(Math.abs(gain)).toBeLessThanOrEqual(1);
  for (const attr of ['data-best-of-n-ci', 'data-weighted-vote-ci', 'data-ece-ci', 'data-best-verifier-gain-ci']) {
    const [lo, hi] = ((await evalSummary.getAttribute(attr)) ?? '').split(',').map((x) => numberAttr(x, attr));
    expect(lo, attr).toBeLessThanOrEqual(hi);
  }
  await expect(evalSummary).toHaveAttribute('data-recommended-rule', /^(bestOfN|majority|weightedVote|weightedVoteRaw|selector|first|random|oracle)$/);
  const allQuestions = numberAttr(await evalSummary.getAttribute('data-all-questions-accuracy'), 'data-all-questions-accuracy');
  expect(allQuestions).toBeGreaterThanOrEqual(0);
  expect(allQuestions).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('reliability-diagram')).toHaveAttribute('data-bins', '10');
  // Does the verifier just prefer long (or short) answers: within-question rank correlations with answer length,
  // one sentence, and two rules that pick by length alone; the charts name the weighted vote they draw (T = 1).
  for (const attr of ['data-length-energy-corr', 'data-length-label-corr']) {
    expect(Math.abs(numberAttr(await evalSummary.getAttribute(attr), attr)), attr).toBeLessThanOrEqual(1);
  }
  await expect(page.getByTestId('length-bias')).toContainText(/^The verifier (leans|does not lean) on length more than correctness does/);
  await expect(page.locator('[data-testid="selection-rule"][data-rule="shortest"], [data-testid="selection-rule"][data-rule="longest"]')).toHaveCount(2);
  await expect(page.getByTestId('chart-ncurve')).toContainText('weighted vote (T = 1)');
  await expect(page.getByTestId('chart-val-bon')).toContainText('weighted vote (T = 1)');

  // Export run: metrics.jsonl in eorm.train's records.
  const runDownload = page.waitForEvent('download');
  await page.getByTestId('export-run').click();
  const runLines = readFileSync((await (await runDownload).path())!, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string });
  expect(runLines[0]).toMatchObject({ type: 'config', stepsPerEpoch: 8, totalSteps: 40, split: { seed: 7, kind: 'all' } });
  expect(runLines.filter((r) => r.type === 'step')).toHaveLength(40);
  expect(runLines.filter((r) => r.type === 'eval')).toHaveLength(6);
  expect(runLines.at(-1)!.type).toBe('end');

  // Inspect: a validation group, its candidates in ascending energy.
  await page.getByTestId('inspect-show').click();
  const inspected = page.getByTestId('inspect-candidate');
  await expect(inspected.first()).toBeVisible({ timeout: 60_000 });
  const energies = (await inspected.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-energy')))).map((e) => numberAttr(e, 'data-energy'));
  expect(energies.length).toBeGreaterThanOrEqual(2);
  expect(energies).toEqual([...energies].sort((a, b) => a - b));

  // Rerank three pasted answers with the trained model, then export exactly that model.
  const before = await rerank(page);
  // Why this energy: the rank-1 candidate's explanation, at the energy Rerank gave it. Cut at 64 tokens, the
  // input holds the question only, and the page says that nothing of the answer was read (e2e/explain.spec.ts
  // checks the steps and tokens of an answer the model reads).
  await page.getByTestId('rerank-result').getByTestId('saliency-button').first().click();
  const explained = page.getByTestId('saliency-text');
  await expect(explained).toBeVisible({ timeout: 120_000 });
  const rankOne = numberAttr(await page.getByTestId('ranked-candidate').first().getAttribute('data-energy'), 'data-energy');
  expect(Math.abs(numberAttr(await explained.getAttribute('data-energy'), 'data-energy') - rankOne)).toBeLessThanOrEqual(1e-6);
  await expect(page.getByTestId('saliency-unread')).toContainText('read none of this answer');
  await expect(page.getByTestId('saliency-step')).toHaveCount(0);
  const download = page.waitForEvent('download', (d) => d.suggestedFilename().endsWith('.safetensors'));
  const cardDownload = page.waitForEvent('download', (d) => d.suggestedFilename().endsWith('.md'));
  await page.getByTestId('export-weights').click();
  const file = await (await download).path();
  expect(file).toBeTruthy();
  expect(readFileSync((await (await cardDownload).path())!, 'utf8')).toContain('## Selection rules');

  // A fresh page (new worker, nothing in memory) imports the file and gives the same energies.
  await page.reload();
  await expect(backend).toHaveAttribute('data-backend', trainedOn, { timeout: 60_000 });
  await page.getByTestId('import-weights').setInputFiles(file!);
  await expect(page.getByTestId('model-info')).toHaveAttribute('data-source', 'imported', { timeout: 60_000 });
  const after = await rerank(page);
  const deltas = [...before].map(([index, e]) => Math.abs(after.get(index)! - e));
  console.log(`epoch mean train loss ${epochLosses.map((l) => l.toFixed(4)).join(' → ')}; energies before/after import: max |Δ| ${Math.max(...deltas)}`);
  for (const [index, e] of before) expect(Math.abs(after.get(index)! - e), `candidate ${index}`).toBeLessThanOrEqual(1e-5);
  expect(errors).toEqual([]);
});
