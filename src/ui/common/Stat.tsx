import type { ReactNode } from 'react';

/** One labelled figure in a dense definition grid. */
export function Stat(props: { label: ReactNode; children: ReactNode; title?: string; tone?: 'warn' | 'good' }) {
  return (
    <div className={`stat ${props.tone ? `stat-${props.tone}` : ''}`} title={props.title}>
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}
