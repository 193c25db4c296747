import type { ReactNode } from 'react';

/** A titled section of the page; `id` is the anchor the header's navigation links to. */
export function Panel(props: { id: string; title: string; aside?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section className={`panel ${props.className ?? ''}`} id={props.id} aria-labelledby={`${props.id}-title`}>
      <header className="panel-head">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        {props.aside}
      </header>
      {props.children}
    </section>
  );
}
