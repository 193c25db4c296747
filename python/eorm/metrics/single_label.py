"""What the questions with a single label add to each rule, in one sentence: the app's singleLabel.ts, word for
word. On an all-wrong question every rule scores 0; on an all-right one every rule scores 1, except that the
rules that choose a final answer (the votes) score 0 when no candidate has an extractable final answer."""
from __future__ import annotations

from typing import Dict, Sequence

from .summary import ScoredGroup


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def single_label_note(groups: Sequence[ScoredGroup]) -> Dict:
    all_right = all_wrong = all_right_no_answer = 0
    for g in groups:
        n, correct = len(g.labels), sum(g.labels)
        if n == 0 or 0 < correct < n:
            continue
        if correct == 0:
            all_wrong += 1
        else:
            all_right += 1
            if all(a is None for a in g.answers):
                all_right_no_answer += 1
    questions = all_right + all_wrong
    head = f"On the other {_plural(questions, 'question', 'questions')} ({all_right} with every answer right, {all_wrong} with every answer wrong)"
    if questions == 0:
        sentence = "No question has a single label."
    elif all_right_no_answer == 0:
        sentence = f"{head} every rule scores alike: 1 where every answer is right, 0 where every answer is wrong."
    else:
        sentence = (
            f"{head} every rule scores 1 where every answer is right and 0 where every answer is wrong, except on the "
            f"{_plural(all_right_no_answer, 'all-right question', 'all-right questions')} with no extractable final answer: there the rules that "
            "choose a final answer (the votes) have none to choose and score 0, while those that pick a candidate (Best-of-N, first, random, "
            "shortest, longest) score 1."
        )
    return {"questions": questions, "allRight": all_right, "allWrong": all_wrong, "allRightNoAnswer": all_right_no_answer, "sentence": sentence}
