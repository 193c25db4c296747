"""Final answers read as a grader reads them, as the app's src/engine/data/answers/: extraction (answer_extract,
answer_boxes, math_spans), forms and keys (answer_form, answer_key, answers), equality and votes
(answer_equality, answer_classes), and the exact mathematics under them (math_parse, math_eval, rational)."""
