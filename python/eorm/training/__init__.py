"""The parts of a training run (eorm.train is its command line): its inputs and split (run_inputs, kept), the
step (step, schedule), validation and the best model (validation, best_metric), what it writes (outputs, runlog,
checkpoint) and its processes (distributed)."""
