import { SPLIT_SOURCE_ATTR } from '../../engine/data/heldOutNote.ts';
import { useEngine } from '../../state/hooks.ts';

/**
 * Which questions the latest validation's figures are over (the model's own held-out ones, or the settings'
 * split, which may include training questions), and whether they chose the checkpoint they describe.
 * Shown above the figures; `data-split-source` is the automation contract's (docs/design.md).
 */
export function EvalSplitNote() {
  const note = useEngine((s) => s.latestEval.val?.report.heldOut ?? null);
  if (!note) return null;
  const warn = note.source !== 'model' || note.chosenOnValidation;
  return (
    <p
      className={warn ? 'notice notice-warn small' : 'muted small'}
      role={warn ? 'status' : undefined}
      data-testid="eval-split"
      data-split-source={SPLIT_SOURCE_ATTR[note.source]}
      data-chosen-on-validation={note.chosenOnValidation}
    >
      {note.sentence}
    </p>
  );
}
