import { useId } from 'react';
import type { ModelInfo, ModelSlot } from '../../worker/protocols/models.ts';
import { engineStore } from '../../state/engineStore.ts';
import { useEngine } from '../../state/hooks.ts';
import { Panel } from '../common/Panel.tsx';
import { Stat } from '../common/Stat.tsx';
import { exportRun, exportWeights, importWeights, selectModel } from '../../client/commands.ts';
import { compact, int } from '../format.ts';

const SLOT_NAMES: Record<ModelSlot, string> = {
  latest: 'latest trained weights',
  best: 'best validation checkpoint',
  imported: 'imported file',
};

function ModelDetails({ info }: { info: ModelInfo }) {
  const m = info.model;
  return (
    <>
      <p className="small">{info.description}</p>
      {info.slot === 'best' && (
        <p className="hint" data-testid="model-optimistic">
          Chosen as the best by its validation figures, so those (the Best-of-N above among them) are optimistic: a test set it was not chosen on gives figures
          to report.
        </p>
      )}
      <dl className="stats">
        <Stat label="Parameters" title={int(info.params)}>
          {compact(info.params)}
        </Stat>
        <Stat label="d_model · heads · layers">
          {m.dModel} · {m.nHeads} · {m.nLayers}
        </Stat>
        <Stat label="FFN · dropout">
          {m.ffnDim} · {m.dropout}
        </Stat>
        <Stat label="Max length · positions">
          {m.maxLen} · {m.positional}
        </Stat>
      </dl>
      {info.warnings.length > 0 && (
        <div className="notice notice-warn small">
          <ul>
            {info.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** Which model is in use, and moving weights in and out as safetensors. */
export function ModelPanel() {
  const { active, available } = useEngine((s) => s.models);
  const exporting = useEngine((s) => s.pending.export === true);
  const importing = useEngine((s) => s.pending.import === true);
  const exportingRun = useEngine((s) => s.pending.exportRun === true);
  // A run of this session has something to write once its first validation or step is in.
  const hasRun = useEngine((s) => s.run.valVersion > 0 || s.run.seriesVersion > 0);
  const info = available.find((m) => m.slot === active) ?? null;
  const slotId = useId();
  const importId = useId();

  return (
    <Panel id="model" title="Model">
      <p className="hint">
        Inspect, Rerank and Export use the <strong>selected</strong> model.
      </p>
      <div className="model-info" data-testid="model-info" data-source={info?.source ?? ''} data-params={info?.params ?? ''} data-slot={active ?? ''}>
        <div className="field inline">
          <label htmlFor={slotId}>Selected model</label>
          <select
            id={slotId}
            data-testid="model-slot"
            value={active ?? ''}
            disabled={available.length === 0}
            onChange={(e) => selectModel(e.target.value as ModelSlot)}
          >
            {available.length === 0 && <option value="">none yet</option>}
            {available.map((m) => (
              <option key={m.slot} value={m.slot}>
                {SLOT_NAMES[m.slot]}
              </option>
            ))}
          </select>
        </div>
        {info ? <ModelDetails info={info} /> : <p className="muted">No model yet: train one, or import a .safetensors file.</p>}
      </div>
      <div className="row">
        <button type="button" data-testid="export-weights" disabled={!info} onClick={exportWeights}>
          {exporting ? 'Exporting…' : 'Export weights (.safetensors)'}
        </button>
        <button
          type="button"
          data-testid="export-run"
          disabled={!hasRun}
          onClick={exportRun}
          title="This session's run: metrics.jsonl in the format eorm.train writes"
        >
          {exportingRun ? 'Exporting…' : 'Export run (metrics.jsonl)'}
        </button>
        <label htmlFor={importId} className="button-like">
          {importing ? 'Importing…' : 'Import weights…'}
        </label>
        <input
          id={importId}
          className="visually-hidden"
          type="file"
          accept=".safetensors"
          data-testid="import-weights"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) {
              importWeights(file).catch((err: unknown) => engineStore.getState().reportFailure(`Could not read ${file.name}: ${String(err)}`));
            }
          }}
        />
      </div>
      <p className="hint">
        Weights use PyTorch state_dict names, so the reference TransEBM loads them unchanged. A model card (.md) with the data, settings, selection rules and
        calibration is saved beside them.
      </p>
    </Panel>
  );
}
