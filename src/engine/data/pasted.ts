/**
 * Candidates pasted into the Rerank panel: either JSONL lines with `gen_text` (or
 * `generated_full_text`), or plain texts separated by a line that is just `---`.
 */
export type PastedCandidates = { ok: true; texts: string[]; format: 'jsonl' | 'separated' } | { ok: false; message: string };

const SEPARATOR = /^\s*---\s*$/;

export function parsePastedCandidates(input: string): PastedCandidates {
  const lines = input.replace(/\r\n?/g, '\n').split('\n');
  const nonBlank = lines.map((text, i) => ({ text, line: i + 1 })).filter((l) => l.text.trim() !== '');
  if (nonBlank.length === 0) return { ok: false, message: 'Paste at least one candidate answer (separate several with a line containing only ---).' };
  if (nonBlank.every((l) => l.text.trimStart().startsWith('{'))) return parseJsonl(nonBlank);
  const texts: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const text = current.join('\n').trim();
    if (text !== '') texts.push(text);
    current = [];
  };
  for (const line of lines) {
    if (SEPARATOR.test(line)) flush();
    else current.push(line);
  }
  flush();
  if (texts.length === 0) return { ok: false, message: 'Only separators were pasted: put candidate answers between the --- lines.' };
  return { ok: true, texts, format: 'separated' };
}

function parseJsonl(lines: Array<{ text: string; line: number }>): PastedCandidates {
  const texts: string[] = [];
  for (const { text, line } of lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { ok: false, message: `Pasted line ${line}: not valid JSON (${(e as Error).message}). Fix the line, or paste plain texts separated by ---.` };
    }
    const obj = value as Record<string, unknown>;
    const gen = obj.gen_text ?? obj.generated_full_text;
    if (typeof gen !== 'string') {
      return {
        ok: false,
        message: `Pasted line ${line}, field "gen_text": missing or not a string. Each JSONL line needs "gen_text" (or "generated_full_text").`,
      };
    }
    texts.push(gen);
  }
  return { ok: true, texts, format: 'jsonl' };
}
