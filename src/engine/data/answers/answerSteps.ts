/**
 * An answer's reasoning steps, the coarse grain of "Why this energy?": its sentences, line by line. A line
 * is a step of its own, and so is each sentence of a line that holds several: answers written as one
 * paragraph and an answer line (most of GSM8K's) then still come in steps. Steps are character ranges
 * (UTF-16 offsets, as String.slice) that partition the text: a step keeps the whitespace after it (the
 * newline, blank lines, the space before the next sentence) and a list marker before it ("2. "), and
 * whitespace before the first step belongs to it. The steps concatenate to the text.
 */

export interface TextRange {
  start: number;
  end: number;
}

/** A line ends at its newline. */
const LINE_END = /\n/g;
/** A sentence ends at . ! or ? (closing quotes or brackets included) followed by whitespace: "3.5" does not end one. */
const SENTENCE_END = /[.!?]+["'”’)\]]*\s+/g;
const BLANK = /^\s*$/;
/** A list item's number or letter alone ("1. ", "b) "): it starts the step after it. */
const MARKER = /^\s*(?:\d{1,3}|[A-Za-z])[.)]\s*$/;

/** `range` of `text` cut after each match of `boundary`; blank pieces join the piece before, list markers the piece after. */
function splitAfter(text: string, range: TextRange, boundary: RegExp): TextRange[] {
  const part = text.slice(range.start, range.end);
  const cuts = [0, ...Array.from(part.matchAll(boundary), (m) => m.index + m[0].length).filter((c) => c < part.length), part.length];
  const pieces: TextRange[] = [];
  let start = 0;
  for (let i = 1; i < cuts.length; i++) {
    const piece = part.slice(start, cuts[i]);
    const last = i + 1 === cuts.length;
    if (BLANK.test(piece) && pieces.length > 0) {
      pieces[pieces.length - 1].end = range.start + cuts[i];
      start = cuts[i];
    } else if (!BLANK.test(piece) && (last || !MARKER.test(piece))) {
      pieces.push({ start: range.start + start, end: range.start + cuts[i] });
      start = cuts[i];
    }
    // Else leading whitespace or a marker: the next piece starts here.
  }
  return pieces;
}

/** The steps of `text` in order; none for blank text. */
export function answerSteps(text: string): TextRange[] {
  const lines = splitAfter(text, { start: 0, end: text.length }, LINE_END);
  return lines.flatMap((line) => splitAfter(text, line, SENTENCE_END));
}
