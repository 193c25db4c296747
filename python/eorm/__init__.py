"""EORM: train and use the TransEBM energy verifier of EORM Studio with PyTorch.

Same model (state_dict names), same inputs (GPT-2 BPE r50k, [CLS] q [SEP] a, right truncation), same data
rules, split, metrics and `.safetensors` files as the browser app, so weights go both ways.

    torchrun --nproc_per_node N -m eorm.train --data FILE.jsonl --preset tiny --out DIR
    python3 -m eorm.score --weights DIR/model.safetensors --data FILE.jsonl
"""
__version__ = "0.1.0"
