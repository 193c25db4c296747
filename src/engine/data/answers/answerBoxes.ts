/**
 * The boxed answer of a text: the last balanced `\boxed{…}` / `\fbox{…}`, read together with the boxes just
 * before it when only connecting words stand between them ("\boxed{1} and \boxed{2}", "\boxed{(2, 2)} \quad
 * \text{and} \quad \boxed{(6, 2)}"): one list answer, as a grader reads several boxes of one final line.
 * python/eorm/answers/answer_boxes.py is the twin. One forward pass with a stack of open braces.
 */

interface Box {
  /** Where "\boxed" starts, where its content starts, where its closing brace is. */
  at: number;
  from: number;
  to: number;
}

/** Every outermost balanced box, in order; `\{` and `\}` are characters, not braces. */
function outerBoxes(text: string): Box[] {
  const opens: Array<{ at: number; from: number } | null> = []; // a box's start, or null for a plain brace
  const found: Box[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      // "\\boxed" (a backslash escaped once too often) is a box too.
      if (text[i + 1] === '\\' && (text.startsWith('boxed', i + 2) || text.startsWith('fbox', i + 2))) continue;
      const name = text.startsWith('boxed', i + 1) ? 5 : text.startsWith('fbox', i + 1) ? 4 : 0;
      if (name === 0) {
        i++;
        continue;
      }
      let j = i + 1 + name;
      while (text[j] === ' ' || text[j] === '\t' || text[j] === '\n') j++;
      if (text[j] === '{') {
        opens.push({ at: i, from: j + 1 });
        i = j;
      }
    } else if (c === '{') opens.push(null);
    else if (c === '}' && opens.length > 0) {
      const open = opens.pop()!;
      if (open === null) continue;
      // Boxes inside this one were found first; the outer box replaces them.
      while (found.length > 0 && found[found.length - 1].at > open.at) found.pop();
      found.push({ at: open.at, from: open.from, to: i });
    }
  }
  return found;
}

/** Gaps longer than this do not join boxes. */
const MAX_GAP = 80;
const MAX_GAP_WORDS = 4;
const CONNECTIVES = new Set(['and', 'or']);

/**
 * Whether the text between two boxes only connects them: delimiters, \quad, punctuation, and no word, or a
 * few words on one line that end with "and"/"or" ("\boxed{1} papers and \boxed{2}", "\text{ for part (a)
 * and }"); not "\boxed{3}, then \boxed{4}", where the second replaces the first.
 */
function connects(gap: string): boolean {
  if (gap.length > MAX_GAP) return false;
  // The name of the next box's value ("\) and \( y_2 = \boxed{…}") is not a word between them.
  const plain = gap
    .replace(/\\text\s*\{([^{}]*)\}/g, ' $1 ')
    .replace(/\\[A-Za-z]+|\\./g, ' ')
    .replace(/[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*$/, '');
  const words = plain.match(/[A-Za-z]+/g) ?? [];
  if (words.length === 0) return true;
  return words.length <= MAX_GAP_WORDS && CONNECTIVES.has(words[words.length - 1]) && !gap.includes('\n');
}

/** The last box's content, or the contents of the last boxes that connect, joined as a list ("1, 2"); null if none. */
export function lastBoxes(text: string): string | null {
  const boxes = outerBoxes(text);
  if (boxes.length === 0) return null;
  let first = boxes.length - 1;
  while (first > 0 && connects(text.slice(boxes[first - 1].to + 1, boxes[first].at))) first--;
  return boxes
    .slice(first)
    .map((b) => text.slice(b.from, b.to))
    .join(', ');
}
