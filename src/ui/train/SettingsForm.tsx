import { useId } from 'react';
import type { SplitKind } from '../../engine/data/split.ts';
import type { BestMetric, ModelSettings, PresetName, TrainSettings } from '../../engine/train/settings.ts';
import { BEST_METRIC_LABELS, bestMetricOf } from '../../engine/train/bestMetric.ts';
import { settingsStore } from '../../state/settingsStore.ts';
import { useEngine, useSettings } from '../../state/hooks.ts';
import type { ModelField, NumberRule, RunField } from '../../state/settingsLogic.ts';
import { NumberField } from '../common/NumberField.tsx';
import { isRunActive } from '../../state/engineState.ts';

const INT_POS: NumberRule = { integer: true, min: 1 };
const INT_NONNEG: NumberRule = { integer: true, min: 0 };
const POSITIVE: NumberRule = { min: Number.MIN_VALUE };
const NONNEG: NumberRule = { min: 0 };

/** One empty list: a selector that returned a new [] each time would re-render without end. */
const NO_NAMES: readonly string[] = [];

type NumericModelField = Exclude<ModelField, 'positional'>;
type NumericRunField = Exclude<RunField, 'init' | 'bestMetric' | 'splitKind' | 'holdoutSources' | 'selectorFields'>;

const MODEL_FIELDS: Array<{ key: NumericModelField; label: string; rule: NumberRule; testId: string; hint?: string }> = [
  { key: 'dModel', label: 'd_model', rule: INT_POS, testId: 'cfg-d-model', hint: 'Width of the Transformer; must be divisible by heads' },
  { key: 'nHeads', label: 'Heads', rule: INT_POS, testId: 'cfg-heads' },
  { key: 'nLayers', label: 'Layers', rule: INT_POS, testId: 'cfg-layers' },
  { key: 'ffnDim', label: 'FFN width', rule: INT_POS, testId: 'cfg-ffn', hint: 'Usually 4 × d_model' },
  { key: 'dropout', label: 'Dropout', rule: { min: 0, below: 1 }, testId: 'cfg-dropout' },
  {
    key: 'maxLen',
    label: 'Max length',
    rule: { integer: true, min: 2 },
    testId: 'cfg-max-len',
    hint: 'Tokens per candidate, CLS included; longer ones are cut',
  },
];

const RUN_FIELDS: Array<{ key: NumericRunField; label: string; rule: NumberRule; testId: string; hint?: string }> = [
  { key: 'epochs', label: 'Epochs', rule: INT_POS, testId: 'cfg-epochs' },
  {
    key: 'lr',
    label: 'Learning rate',
    rule: POSITIVE,
    testId: 'cfg-lr',
    hint: 'Peak AdamW learning rate (each preset sets its own: 1e-3 for tiny; the reference 1e-4, for d 768, for small and paper)',
  },
  { key: 'seed', label: 'Seed', rule: INT_NONNEG, testId: 'cfg-seed', hint: 'Seeds the split, shuffling, initialisation and dropout' },
  { key: 'warmupRatio', label: 'Warmup ratio', rule: { min: 0, max: 1 }, testId: 'cfg-warmup' },
  { key: 'weightDecay', label: 'Weight decay', rule: NONNEG, testId: 'cfg-weight-decay' },
  { key: 'maxGradNorm', label: 'Max grad norm', rule: POSITIVE, testId: 'cfg-max-grad-norm' },
  { key: 'groupsPerStep', label: 'Groups / step', rule: INT_POS, testId: 'cfg-groups-per-step' },
  {
    key: 'microBatch',
    label: 'Micro-batch',
    rule: INT_NONNEG,
    testId: 'cfg-micro-batch',
    hint: 'Candidates per forward/backward pass; 0 = automatic: one pass when the step fits in memory',
  },
  { key: 'evalEverySteps', label: 'Eval every N steps', rule: INT_NONNEG, testId: 'cfg-eval-every', hint: '0 = validate at the end of each epoch only' },
  {
    key: 'checkpointEverySteps',
    label: 'Checkpoint every N steps',
    rule: INT_NONNEG,
    testId: 'cfg-checkpoint-every',
    hint: 'Saved in this browser so the run can resume after a reload; also at every epoch end (0 = epoch ends only)',
  },
];

const PRESET_LABELS: Record<PresetName, string> = {
  tiny: 'tiny (d 64, quick look)',
  small: 'small (d 256)',
  paper: 'paper (d 768, ≈53M params)',
  custom: 'custom',
};

export function SettingsForm() {
  const settings = useSettings((s) => s.settings);
  const frozen = useEngine((s) => isRunActive(s.run.status.state));
  const hasModel = useEngine((s) => s.models.available.length > 0);
  const sources = useEngine((s) => s.data.train.summary?.sources ?? NO_NAMES);
  const fields = useEngine((s) => s.data.train.summary?.scoreFields ?? NO_NAMES);
  const splitKindId = useId();
  const presetId = useId();
  const positionalId = useId();
  const bestMetricId = useId();
  const st = settingsStore.getState();

  const setModel = <K extends ModelField>(k: K, v: ModelSettings[K]) => st.setModelField(k, v);
  const setRun = <K extends RunField>(k: K, v: TrainSettings[K]) => st.setRunField(k, v);

  return (
    <form className="settings" onSubmit={(e) => e.preventDefault()}>
      <fieldset disabled={frozen}>
        <legend>Model</legend>
        <div className="field">
          <label htmlFor={presetId}>Preset</label>
          <select id={presetId} data-testid="preset" value={settings.preset} onChange={(e) => st.setPreset(e.target.value as PresetName)}>
            {(Object.keys(PRESET_LABELS) as PresetName[]).map((p) => (
              <option key={p} value={p}>
                {PRESET_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <div className="fields">
          {MODEL_FIELDS.map((f) => (
            <NumberField
              key={f.key}
              label={f.label}
              value={settings.model[f.key]}
              rule={f.rule}
              testId={f.testId}
              hint={f.hint}
              onChange={(v) => setModel(f.key, v)}
            />
          ))}
          <div className="field" title="The reference model has no positional encoding (none); learned adds a position embedding">
            <label htmlFor={positionalId}>Positions</label>
            <select id={positionalId} value={settings.model.positional} onChange={(e) => setModel('positional', e.target.value as ModelSettings['positional'])}>
              <option value="none">none</option>
              <option value="learned">learned</option>
            </select>
          </div>
        </div>
      </fieldset>
      <fieldset disabled={frozen}>
        <legend>Training</legend>
        <div className="fields">
          {RUN_FIELDS.map((f) => (
            <NumberField key={f.key} label={f.label} value={settings[f.key]} rule={f.rule} testId={f.testId} hint={f.hint} onChange={(v) => setRun(f.key, v)} />
          ))}
        </div>
        <div
          className="field"
          title="All questions: validation holds the same share of every question, so its accuracy is what you would report; training uses those with both labels among the rest. Both labels only: the split before this option (the oracle reads 100%). Continuing a model keeps the split it records."
        >
          <label htmlFor={splitKindId}>Validation questions</label>
          <select
            id={splitKindId}
            data-testid="cfg-split-kind"
            value={settings.splitKind ?? 'mixed'}
            onChange={(e) => setRun('splitKind', e.target.value as SplitKind)}
          >
            <option value="all">all questions</option>
            <option value="mixed">both labels only</option>
          </select>
        </div>
        <NameChecks setting="holdoutSources" names={sources} chosen={settings.holdoutSources ?? []} onChange={(held) => setRun('holdoutSources', held)} />
        <NameChecks setting="selectorFields" names={fields} chosen={settings.selectorFields ?? []} onChange={(on) => setRun('selectorFields', on)} />
        <div className="radios" role="radiogroup" aria-label="Initialisation">
          <label>
            <input
              type="radio"
              name="init"
              value="fresh"
              data-testid="cfg-init-fresh"
              checked={settings.init === 'fresh'}
              onChange={() => setRun('init', 'fresh')}
            />{' '}
            fresh weights
          </label>
          <label title={hasModel ? 'Train the selected model further' : 'No model to continue from yet'}>
            <input
              type="radio"
              name="init"
              value="continue"
              data-testid="cfg-init-continue"
              checked={settings.init === 'continue'}
              disabled={!hasModel && settings.init !== 'continue'}
              onChange={() => setRun('init', 'continue')}
            />{' '}
            continue the selected model
          </label>
        </div>
        <div className="field inline" title="The validation figure that makes a checkpoint the best model (the best slot and best.safetensors)">
          <label htmlFor={bestMetricId}>Best checkpoint by</label>
          <select
            id={bestMetricId}
            data-testid="cfg-best-metric"
            value={bestMetricOf(settings)}
            onChange={(e) => setRun('bestMetric', e.target.value as BestMetric)}
          >
            {(Object.keys(BEST_METRIC_LABELS) as BestMetric[]).map((m) => (
              <option key={m} value={m}>
                {BEST_METRIC_LABELS[m]}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
    </form>
  );
}

/** `held` with `name` in or out, in the order the file names its sources. */
/** The settings that are lists of names from the training file, each a set of checkboxes (NameChecks). */
const NAME_CHECKS = {
  holdoutSources: {
    legend: 'Hold out sources',
    testId: 'cfg-holdout-sources',
    itemTestId: 'cfg-holdout-source',
    itemAttribute: 'data-source',
    title:
      "Train on the other sources' candidates only, validate on these sources' candidates (the same questions are held out): does the verifier transfer to a generator it never saw?",
  },
  selectorFields: {
    legend: 'Selector also reads',
    testId: 'cfg-selector-fields',
    itemTestId: 'cfg-selector-field',
    itemAttribute: 'data-field',
    title:
      "Numbers each candidate line carries (another reward model's score, a mean logprob): the learned selector reads the ticked ones beside vote share, energy and generator, each standardised within its question, its weight fitted on held-out questions. Files you rerank or pick from later need the same fields.",
  },
} as const;

/** A checkbox per name (nothing where there are none), the ticked ones in the names' order. */
function NameChecks(props: { setting: keyof typeof NAME_CHECKS; names: readonly string[]; chosen: readonly string[]; onChange: (chosen: string[]) => void }) {
  const { names, chosen } = props;
  const c = NAME_CHECKS[props.setting];
  if (names.length === 0) return null;
  return (
    <fieldset className="checks" data-testid={c.testId} title={c.title}>
      <legend>{c.legend}</legend>
      {names.map((name) => (
        <label key={name}>
          <input
            type="checkbox"
            data-testid={c.itemTestId}
            {...{ [c.itemAttribute]: name }}
            checked={chosen.includes(name)}
            onChange={(e) => props.onChange(toggled(chosen, name, e.target.checked, names))}
          />{' '}
          {name}
        </label>
      ))}
    </fieldset>
  );
}

function toggled(held: readonly string[], name: string, on: boolean, order: readonly string[]): string[] {
  const next = new Set(held);
  if (on) next.add(name);
  else next.delete(name);
  return order.filter((s) => next.has(s));
}
