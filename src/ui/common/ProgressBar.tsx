/** A labelled progress bar; an unknown total (0) shows an indeterminate bar. */
export function ProgressBar(props: { value: number; max: number; label: string; testId?: string }) {
  const known = props.max > 0;
  return (
    <div className="progress" data-testid={props.testId}>
      <progress value={known ? Math.min(props.value, props.max) : undefined} max={known ? props.max : undefined} aria-label={props.label} />
      <span className="progress-label">{props.label}</span>
    </div>
  );
}
