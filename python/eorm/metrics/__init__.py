"""The figures of an evaluation, as the app's src/engine/metrics/: the summary (summary), the held-out figures
what each rule scores (rule_scores), the held-out figures (held_out) and their intervals (bootstrap, repeated_cross_fit, paired_test), the fitted rules (temperature, selector,
logistic, cross_fit, folds), calibration, the generators, the length check and the per-source audit."""
