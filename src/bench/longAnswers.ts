/**
 * A long-answer shape from a file of many short answers per question: candidate i of a question becomes
 * its answers i, i+1, … (wrapping round the group) joined by blank lines until at least `minChars`, so
 * most candidates reach the model's token cap, as long chains of thought do. Each keeps its first
 * answer's label (the prefix that survives truncation). Same questions, same number of candidates.
 */
export const LONG_MIN_CHARS = 2_400;

interface Line {
  question_id: string;
  gen_text: string;
  [field: string]: unknown;
}

export function longAnswers(text: string, minChars = LONG_MIN_CHARS): string {
  const groups = new Map<string, Line[]>();
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    const line = JSON.parse(raw) as Line;
    const g = groups.get(line.question_id);
    if (g) g.push(line);
    else groups.set(line.question_id, [line]);
  }
  const out: string[] = [];
  for (const group of groups.values()) {
    group.forEach((line, i) => {
      const parts = [line.gen_text];
      let chars = line.gen_text.length;
      for (let k = 1; chars < minChars && k < group.length; k++) {
        const next = group[(i + k) % group.length].gen_text;
        parts.push(next);
        chars += next.length + 2;
      }
      out.push(JSON.stringify({ ...line, gen_text: parts.join('\n\n') }));
    });
  }
  return `${out.join('\n')}\n`;
}
