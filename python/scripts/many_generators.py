"""A synthetic file of the shape issue 42's targets name (16 answers a question drawn from 38 generators that
are right 5% to 95% of the time), on the real texts of the shared 16-answer GSM8K file. Correctness is drawn,
not real: generator g is right with probability sigmoid(logit(accuracy_g) - d_q), d_q ~ N(0, 1.5) a question's
difficulty shared by every generator; a wrong answer is the question's popular wrong answer with probability
0.4, else one of 10 others. Each answer's text is a real answer to the question with its last line replaced by
"Answer: <the drawn answer>". Not evidence about real generators: a check that the rules find what is there.

    python3 python/scripts/many_generators.py /work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl OUT.jsonl [--seed 7]
    npm run bench -- selection --data OUT.jsonl
"""
import argparse
import json
import math
import random
import re

QUESTIONS, GENERATORS, PER_QUESTION = 721, 38, 16


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source")
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    rng = random.Random(args.seed)
    groups: dict = {}
    with open(args.source) as f:
        for line in f:
            r = json.loads(line)
            groups.setdefault(r["question_id"], []).append(r)
    accuracy = [0.05 + 0.90 * g / (GENERATORS - 1) for g in range(GENERATORS)]
    logit = lambda q: math.log(q / (1 - q))  # noqa: E731
    out = []
    for qid in list(groups)[:QUESTIONS]:
        group = groups[qid]
        gold = float(str(group[0]["gold"]).replace(",", ""))
        difficulty = rng.gauss(0, 1.5)
        popular = gold + rng.choice([-1, 1]) * rng.randint(1, 20)
        others = [gold + rng.choice([-1, 1]) * rng.randint(21, 200) for _ in range(10)]
        for k, g in enumerate(rng.sample(range(GENERATORS), PER_QUESTION)):
            right = rng.random() < 1 / (1 + math.exp(-(logit(accuracy[g]) - difficulty)))
            answer = gold if right else popular if rng.random() < 0.4 else rng.choice(others)
            shown = str(int(answer)) if answer.is_integer() else str(answer)
            text = re.sub(r"\n*Answer:.*$", "", group[k % len(group)]["gen_text"], flags=re.S).rstrip()
            out.append({"question": group[0]["question"], "gen_text": f"{text}\n\nAnswer: {shown}", "label": int(right),
                        "question_id": qid, "answer": shown, "gold": group[0]["gold"], "source": f"gen{g:02d}"})
    with open(args.out, "w") as f:
        f.writelines(json.dumps(o) + "\n" for o in out)
    print(f"{len(out)} answers, {sum(o['label'] for o in out) / len(out):.3f} right")


if __name__ == "__main__":
    main()
