"""The figures of an evaluation (evaluation), as the app's src/engine/metrics/: the summary (summary), what each
rule scores and the held-out figures (held_out) with their intervals (bootstrap, refit_bootstrap, paired_test),
the fitted rules (temperature, selector, logistic, cross_fit, folds), calibration, the generators, the length
check and the per-source audit."""
