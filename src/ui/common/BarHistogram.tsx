/**
 * A small bar histogram drawn with plain elements (no chart library for a dozen bars).
 * Heights are scaled to the tallest bar; that scaling is drawing, not statistics.
 */
export interface Bar {
  label: string;
  count: number;
}

interface Props {
  bars: Bar[];
  caption: string;
  unit?: string;
  /** A labelled vertical line at `at`, a fraction (0..1) of the plot width. */
  marker?: { label: string; at: number };
  /** Texts under the two ends of the axis; default: the first and last bar labels. */
  axis?: [string, string];
}

export function BarHistogram(props: Props) {
  const top = props.bars.reduce((m, b) => Math.max(m, b.count), 0);
  if (props.bars.length === 0) return null;
  return (
    <figure className="bars">
      <div className="bars-plot" role="img" aria-label={props.caption}>
        {props.bars.map((b, i) => (
          <div key={i} className="bar" title={`${b.label}: ${b.count.toLocaleString('en-US')} ${props.unit ?? ''}`}>
            <div className="bar-fill" style={{ height: `${top > 0 ? (100 * b.count) / top : 0}%` }} />
          </div>
        ))}
        {props.marker && (
          <div
            className={`bars-marker ${props.marker.at < 0.5 ? 'label-right' : ''}`}
            title={props.marker.label}
            style={{ left: `${Math.min(1, Math.max(0, props.marker.at)) * 100}%` }}
          >
            <span className="bars-marker-label">{props.marker.label}</span>
          </div>
        )}
      </div>
      <div className="bars-axis">
        <span>{props.axis?.[0] ?? props.bars[0].label}</span>
        <span>{props.axis?.[1] ?? props.bars[props.bars.length - 1].label}</span>
      </div>
      <figcaption>{props.caption}</figcaption>
    </figure>
  );
}
