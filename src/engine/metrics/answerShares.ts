/**
 * The energy-weighted vote of one group as probabilities: every candidate carries softmax(−E/T) and an
 * answer the sum over its candidates, so the answers' shares sum to 1. Rerank shows them; T is the
 * temperature fitted on the model's held-out questions (1 when none was fitted). Non-finite energies follow
 * rank.ts: they rank as +Infinity, so they weigh 0 (all equal when every energy is non-finite).
 */
import { rankKey } from './rank.ts';
import { answerMasses, answerSlots } from './vote.ts';

export interface AnswerShare {
  /** null: the candidates with no extracted answer, which never win the vote. */
  answer: string | null;
  probability: number;
  /** The heaviest non-null answer (ties: the first seen in candidate order). */
  picked: boolean;
  /** Its candidates' indices, lowest energy first (ties: candidate order). */
  candidates: number[];
}

/** The answers in order of first appearance (the no-answer row last), with their shares at temperature `temperature` (> 0). */
export function answerShares(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, temperature: number): AnswerShare[] {
  if (!(temperature > 0) || !Number.isFinite(temperature)) throw new RangeError(`temperature ${temperature} must be a positive number`);
  if (answers.length !== energies.length) throw new RangeError(`${answers.length} answers for ${energies.length} energies`);
  const slots = answerSlots(answers, new Uint8Array(answers.length));
  const mass = answerMasses(slots, energies, temperature);
  const rows: AnswerShare[] = Array.from(mass, (m) => ({ answer: null, probability: m, picked: false, candidates: [] }));
  const none: AnswerShare = { answer: null, probability: 1, picked: false, candidates: [] };
  answers.forEach((a, i) => {
    const k = slots.slot[i];
    if (k >= 0) rows[k].answer = a;
    (k >= 0 ? rows[k] : none).candidates.push(i);
  });
  let pick: AnswerShare | null = null;
  for (const r of rows) {
    none.probability -= r.probability;
    if (pick === null || r.probability > pick.probability) pick = r;
  }
  if (pick) pick.picked = true;
  if (none.candidates.length > 0) rows.push({ ...none, probability: Math.max(0, none.probability) });
  for (const r of rows) r.candidates.sort((x, y) => rankKey(energies[x]) - rankKey(energies[y]) || x - y);
  return rows;
}
