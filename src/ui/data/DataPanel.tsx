import { useId, useState, type DragEvent } from 'react';
import type { DataRole } from '../../worker/protocols/data.ts';
import { isRunActive } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import { Panel } from '../common/Panel.tsx';
import { loadFiles, loadSample, sampleLicenseUrl } from '../../client/commands.ts';
import { DatasetSummaryView } from './DatasetSummaryView.tsx';
import { IngestProgressView } from './IngestProgressView.tsx';
import { FORMATS, type FormatSpec } from '../../engine/data/formats/table.ts';

const ACCEPT = '.jsonl,.json,.txt';

/** The formats read beside the app's own, as the hint names them (formats/table.ts): "a, b, or c". */
const OTHER_FORMATS = ((hints: string[]) => `${hints.slice(0, -1).join(', ')}, or ${hints.at(-1)}`)(
  FORMATS.flatMap((f: FormatSpec) => (f.hint ? [f.hint] : [])),
);

function FileInput(props: { role: DataRole; label: string; testId: string; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="field inline">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        multiple
        data-testid={props.testId}
        disabled={props.disabled}
        onChange={(e) => {
          // Several files picked together are read as one dataset (joined by question).
          loadFiles(props.role, [...(e.target.files ?? [])]);
          // Clearing lets the user pick the same file again after editing it.
          e.target.value = '';
        }}
      />
    </div>
  );
}

export function DataPanel() {
  const train = useEngine((s) => s.data.train);
  const test = useEngine((s) => s.data.test);
  // The worker refuses a new training file mid-run; say so here instead of with an error.
  const running = useEngine((s) => isRunActive(s.run.status.state));
  const [dragging, setDragging] = useState(false);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!running) loadFiles('train', [...e.dataTransfer.files]);
  };

  return (
    <Panel id="data" title="Data" className="area-data">
      {/* The whole training-data area takes a dropped file, not just the dashed box. */}
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <div className={`dropzone ${dragging ? 'dragging' : ''}`}>
          <FileInput role="train" label="Training data" testId="dataset-input" disabled={running} />
          <div className="row">
            <button type="button" data-testid="load-sample" onClick={loadSample} disabled={running}>
              Load sample dataset (GSM8K)
            </button>
            <a href={sampleLicenseUrl()} target="_blank" rel="noreferrer">
              sample licence (MIT)
            </a>
          </div>
          {running && <p className="hint">Stop the training run to load another training file.</p>}
          <p className="hint">
            Or drop files here. JSONL, one answer per line: <code>{'{"question": …, "gen_text": …, "label": 0|1}'}</code>; or {OTHER_FORMATS}. Without labels or
            gold answers a file is for Pick answers.
          </p>
        </div>
        <IngestProgressView progress={train.progress} testId="ingest-progress" />
        <DatasetSummaryView role="train" slot={train} testId="dataset-summary" />
      </div>

      <h3>Test set</h3>
      <FileInput role="test" label="Test data (optional)" testId="testset-input" />
      <IngestProgressView progress={test.progress} testId="testset-progress" />
      <DatasetSummaryView role="test" slot={test} testId="testset-summary" />
    </Panel>
  );
}
