/** The first `k` questions' lines of a JSONL text (a question: its question_id, else its text), in file order. */
export function firstQuestions(text: string, k: number): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { question_id?: unknown; question?: unknown };
    const key = JSON.stringify(r.question_id ?? r.question);
    if (!seen.has(key)) {
      if (seen.size === k) continue;
      seen.add(key);
    }
    kept.push(line);
  }
  return kept.join('\n') + '\n';
}

/** The lines of the generators (`source`) right less often than `below` over the whole text (labels 0/1): a slice where generators differ. */
export function weakerGenerators(text: string, below: number): string {
  const rows = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => ({ line: l, r: JSON.parse(l) as { source?: string; label?: number } }));
  const tally = new Map<string, { right: number; all: number }>();
  for (const { r } of rows) {
    const t = tally.get(r.source ?? '') ?? { right: 0, all: 0 };
    t.right += r.label === 1 ? 1 : 0;
    t.all++;
    tally.set(r.source ?? '', t);
  }
  const weak = (s: string | undefined) => {
    const t = tally.get(s ?? '')!;
    return t.right / t.all < below;
  };
  return (
    rows
      .filter(({ r }) => weak(r.source))
      .map(({ line }) => line)
      .join('\n') + '\n'
  );
}
