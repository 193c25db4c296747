/**
 * The model card written beside exported weights (Markdown): what the model is, the data it learned from
 * (identity and counts), the settings, the selection rules with their intervals, calibration, the
 * per-source audit, and the limits of what was measured. Text only: every figure comes from an
 * evaluation the engine computed; nothing here is recomputed.
 */
import type { HeldOutNote } from '../data/heldOutNote.ts';
import type { ModelConfig } from '../model/config.ts';
import { RULE_NAMES, SELECTION_RULES } from '../metrics/rules.ts';
import { CROSS_FIT_REPEATS } from '../metrics/repeatedCrossFit.ts';
import type { SelectionReport, SourceRow } from '../metrics/selectionTypes.ts';
import type { EvalSummary } from '../metrics/summary.ts';

/** One evaluation of the exported model, as the card reports it. */
export interface CardEvaluation {
  set: 'val' | 'test';
  /** The file the groups came from. */
  dataName: string;
  summary: EvalSummary;
  selection?: SelectionReport | null;
  sources?: ReadonlyArray<SourceRow> | null;
  allQuestionsAccuracy?: number | null;
  /** A validation's: which split its groups come from, and whether they chose the model (heldOutNote.ts). */
  heldOut?: HeldOutNote | null;
}

export interface ModelCardInput {
  weightsFile: string;
  description: string;
  source: 'trained' | 'imported';
  config: ModelConfig;
  params: number;
  /** The model's training summary (what its file's metadata records): dataset, groups, split, settings, epoch… */
  training: Record<string, unknown>;
  evaluations: ReadonlyArray<CardEvaluation>;
  exportedAt: string;
  /** A checkpoint chosen by its validation figures (the best one): those figures are optimistic. */
  chosenOnValidation?: boolean;
}

const pct = (x: number | null | undefined): string => (typeof x === 'number' && Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');
const num = (x: number | null | undefined, digits = 3): string => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '–');
const cell = (v: unknown): string => String(typeof v === 'object' && v !== null ? JSON.stringify(v) : v).replace(/\|/g, '\\|');
const setName = (set: 'val' | 'test'): string => (set === 'val' ? 'validation' : 'test');

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function dataSection(t: Record<string, unknown>): string[] {
  const split = (t.split ?? null) as { seed?: number; trainFraction?: number; dataset?: string | null } | null;
  const out = ['## Data', ''];
  if (t.dataset === undefined && !split) return [...out, 'This model records no training data (an imported file without a training summary).', ''];
  out.push(`- Training file: ${cell(t.dataset ?? 'not recorded')}`);
  out.push(`- Identity: ${split?.dataset ?? 'not recorded'}`);
  out.push(`- Groups (questions): ${cell(t.trainGroups ?? '–')} for training, ${cell(t.valGroups ?? '–')} held out for validation`);
  if (split) out.push(`- Split: seed ${cell(split.seed)}, train fraction ${cell(split.trainFraction)}`);
  if (t.epoch !== undefined) out.push(`- Weights taken at epoch ${cell(t.epoch)}, step ${cell(t.step)}`);
  return [...out, ''];
}

function settingsSection(t: Record<string, unknown>): string[] {
  const s = t.settings as Record<string, unknown> | undefined;
  if (!s) return [];
  const rows = Object.entries(s).map(([k, v]) => [k, cell(v)]);
  return ['## Settings', '', ...table(['setting', 'value'], rows), ''];
}

function selectionSection(e: CardEvaluation): string[] {
  const sel = e.selection;
  const head = [`## Selection rules: ${setName(e.set)} (${e.summary.nGroups} groups of ${e.dataName})`, '', ...(e.heldOut ? [e.heldOut.sentence, ''] : [])];
  if (!sel) {
    return [
      ...head,
      `Best-of-N ${pct(e.summary.bestOfN)}, majority vote ${pct(e.summary.baselines.majorityVote)}, weighted vote (T = 1) ${pct(e.summary.baselines.weightedVote)}, pairwise ${pct(e.summary.pairwise)}. No intervals: this evaluation has no selection report.`,
      '',
    ];
  }
  // Reports recorded before a rule existed leave it out.
  const rows = SELECTION_RULES.filter((r) => sel.rules[r] !== undefined).map((r) => [
    RULE_NAMES[r],
    pct(sel.rules[r].accuracy),
    `${pct(sel.rules[r].ci.lo)} – ${pct(sel.rules[r].ci.hi)}`,
  ]);
  const out = [...head, sel.recommended.sentence, '', ...table(['rule', 'accuracy', '95% interval'], rows), ''];
  for (const v of sel.versusMajority) {
    const test = v.p === undefined ? '' : `, p = ${num(v.pAdjusted)} adjusted (${v.differing} questions differ)`;
    out.push(
      `- ${RULE_NAMES[v.rule]} minus majority vote: ${v.diff >= 0 ? '+' : ''}${(100 * v.diff).toFixed(1)} points (95% interval ${(100 * v.ci.lo).toFixed(1)} to ${(100 * v.ci.hi).toFixed(1)}${test}): ${v.real ? 'a real difference' : 'not distinguishable from zero'}.`,
    );
  }
  if (sel.energyGain) out.push(`- ${sel.energyGain.sentence}`);
  const fields = sel.probabilityMap.selectorFields ?? [];
  if (fields.length > 0)
    out.push(
      `- The learned selector also reads the lines' ${fields.map((f) => `\`${f}\``).join(', ')} (standardised within each question): files it reranks or picks from need ${fields.length === 1 ? 'that field' : 'those fields'}; a line without one counts as its question's mean.`,
    );
  out.push(
    `- Intervals: percentile bootstrap over groups, ${sel.bootstrap.resamples} resamples, seed ${sel.bootstrap.seed} (the fitted rules' widened by the spread of ${CROSS_FIT_REPEATS} further cross-fits); ties scored as the expected accuracy of a random pick among the tied answers.${sel.test ? ` "Real": ${sel.test}.` : ''}`,
  );
  if (typeof e.allQuestionsAccuracy === 'number') out.push(`- Over all held-out questions (not only those with both labels): ${pct(e.allQuestionsAccuracy)}.`);
  if (sel.mixedLabelAnswers > 0) {
    out.push(
      `- ${sel.mixedLabelAnswers} final answers have candidates labelled both correct and incorrect: the labels and the app's answer matching disagree there; each counts as the share of its candidates labelled correct.`,
    );
  }
  const c = sel.calibration;
  out.push('', `### Calibration (${setName(e.set)})`, '');
  out.push(
    `Temperature T = ${num(sel.temperature)} (${sel.temperatureSource}). Calibration ${c.method}: expected calibration error of the picked answer's probability ${num(c.ece)} (out of fold), Brier ${num(c.brier)}, log loss ${num(c.logLoss)}; the raw shares at T = 1: ECE ${num(c.eceRaw)}, Brier ${num(c.brierRaw)}, log loss ${num(c.logLossRaw)}.`,
    '',
  );
  const bins = c.bins.map((b, i) => {
    const raw = c.binsRaw[i];
    return [
      `${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`,
      String(b.count),
      num(b.confidence),
      num(b.accuracy),
      String(raw?.count ?? '–'),
      num(raw?.confidence),
      num(raw?.accuracy),
    ];
  });
  out.push(...table(['probability', 'picks (T)', 'confidence (T)', 'accuracy (T)', 'picks (T = 1)', 'confidence (T = 1)', 'accuracy (T = 1)'], bins), '');
  return out;
}

function sourcesSection(e: CardEvaluation): string[] {
  if (!e.sources || e.sources.length === 0) return [];
  const rows = e.sources.map((s) => [
    cell(s.source) + (s.flagged ? ' ⚠' : ''),
    String(s.candidates),
    pct(s.shareCorrect),
    pct(s.pickedShare),
    pct(s.chanceShare),
    pct(s.earnedShare),
    pct(s.pairwise),
    num(s.meanEnergyCorrect),
    num(s.meanEnergyIncorrect),
  ]);
  const flagged = e.sources.filter((s) => s.flagged).map((s) => s.source);
  return [
    `## Per-source audit (${setName(e.set)})`,
    '',
    ...table(
      ['source', 'candidates', 'correct', 'picked', 'picked by chance', 'earned by correctness', 'pairwise', 'mean E correct', 'mean E incorrect'],
      rows,
    ),
    '',
    ...(flagged.length > 0
      ? [`⚠ picked far above its correctness: ${flagged.join(', ')} (the model may favour who wrote an answer over whether it is right).`, '']
      : []),
  ];
}

function limitsSection(input: ModelCardInput): string[] {
  const t = input.training;
  const sets = input.evaluations.map((e) => `${setName(e.set)} (${e.summary.nGroups} groups of ${e.dataName})`);
  const out = ['## Limits', ''];
  out.push(
    `- Trained on ${t.dataset !== undefined ? cell(t.dataset) : 'data this file does not record'}; every figure above is on ${sets.length > 0 ? sets.join(' and ') : 'no evaluation (none was run before export)'}.`,
  );
  out.push(
    '- Validation holds questions of the same file as training: it measures questions like those, not other datasets, other question types or other languages.',
  );
  if (input.chosenOnValidation) {
    const test = input.evaluations.find((e) => e.set === 'test');
    out.push(
      `- The best checkpoint was chosen by its validation figures, so they are optimistic; ${test ? `the test figures (${test.dataName}) are not.` : 'load a test set and export again for figures that did not choose it.'}`,
    );
  }
  if (!input.evaluations.some((e) => e.sources && e.sources.length > 0))
    out.push('- No per-source audit: the data names no generator (`source`), so whether the model favours some generator was not measured.');
  out.push('- Answers written by generators absent from the training file were not tested, unless a hold-out-sources split says otherwise.');
  out.push(`- Inputs are cut at ${input.config.maxLen} tokens (question and answer together): what follows was never read.`);
  out.push(
    '- The temperature, the probability map and the selector were fitted on held-out questions of this file (figures out of fold); on other data the probabilities may be miscalibrated.',
  );
  return [...out, ''];
}

export function modelCard(input: ModelCardInput): string {
  const c = input.config;
  const lines = [
    `# Model card: ${input.weightsFile}`,
    '',
    `An energy-based outcome reward model (TransEBM) from EORM Studio: lower energy = more likely a correct answer. ${input.description}.`,
    '',
    '## Model',
    '',
    `- ${input.params} parameters: d_model ${c.dModel}, ${c.nHeads} heads, ${c.nLayers} layers, FFN ${c.ffnDim}, dropout ${c.dropout}, max length ${c.maxLen}, positions ${c.positional}`,
    `- Tokenizer: r50k_base (GPT-2 BPE); weights in PyTorch state_dict names (safetensors)`,
    `- ${input.source === 'trained' ? 'Trained in the app' : 'Imported from a file'}; exported ${input.exportedAt}`,
    '',
    ...dataSection(input.training),
    ...settingsSection(input.training),
    ...input.evaluations.flatMap((e) => [...selectionSection(e), ...sourcesSection(e)]),
    ...limitsSection(input),
  ];
  return lines.join('\n');
}
