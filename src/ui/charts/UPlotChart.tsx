import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

interface Props {
  title: string;
  /** Called once per mount: a chart's series layout never changes, only its data. */
  makeOptions: () => ChartOptions;
  data: uPlot.AlignedData;
  /** Bump when arrays inside `data` grew in place (same references, new points). */
  version?: number;
  height?: number;
  testId?: string;
  /** Exposed as data-points for scripts. */
  points?: number;
  /** Shown over the empty plot area until there is data. */
  emptyText?: string;
  isEmpty?: boolean;
}

/**
 * A uPlot chart owned by React: created on mount, resized with its container, updated with
 * setData (coalesced to one call per animation frame), destroyed on unmount.
 */
export function UPlotChart({ title, makeOptions, data, version = 0, height = 180, testId, points, emptyText, isEmpty }: Props) {
  const boxRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  const makeRef = useRef(makeOptions);

  useEffect(() => {
    dataRef.current = data;
  });

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const width = () => Math.max(120, Math.floor(box.clientWidth));
    const plot = new uPlot({ ...makeRef.current(), width: width(), height }, dataRef.current, box);
    plotRef.current = plot;
    let lastWidth = width();
    const ro = new ResizeObserver(() => {
      const w = width();
      // The legend changes the box height; only a width change needs a new canvas size.
      if (w !== lastWidth) {
        lastWidth = w;
        plot.setSize({ width: w, height });
      }
    });
    ro.observe(box);
    return () => {
      ro.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [height]);

  useEffect(() => {
    const frame = requestAnimationFrame(() => plotRef.current?.setData(data));
    return () => cancelAnimationFrame(frame);
  }, [data, version]);

  return (
    <figure className="chart" data-testid={testId} data-points={points}>
      <figcaption>{title}</figcaption>
      <div className="chart-box" ref={boxRef}>
        {isEmpty && emptyText && <div className="chart-empty">{emptyText}</div>}
      </div>
    </figure>
  );
}
