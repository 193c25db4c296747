/** Test helper (unit and browser tests): a labelled file made into one for Pick answers. */
/** A JSONL text with every line's `label` and `gold` removed: a file for Pick answers. */
export function withoutLabels(jsonl: string): string {
  return jsonl
    .trim()
    .split('\n')
    .map((l) => {
      const { label: _l, gold: _g, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .join('\n');
}
