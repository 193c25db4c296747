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
