import { useEngine } from '../../state/hooks.ts';
import { deleteStoredDataset } from '../../client/commands.ts';
import { bytes, int } from '../format.ts';

/** Tokenized files kept in this browser (a file opened again loads from here); each can be deleted. */
export function StoredDatasets() {
  const datasets = useEngine((s) => s.storedDatasets);
  if (datasets.length === 0) return null;
  return (
    <>
      <h4>Stored datasets</h4>
      <ul data-testid="stored-datasets">
        {datasets.map((d) => (
          <li key={d.key} data-testid="stored-dataset" data-key={d.key}>
            {d.name} · {bytes(d.bytes)} · {int(d.candidates)} candidates · <span className="muted small">{new Date(d.savedAt).toLocaleString()}</span>{' '}
            <button type="button" data-testid="stored-dataset-delete" onClick={() => deleteStoredDataset(d.key)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
