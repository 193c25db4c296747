"""The app's seeded randomness, bit for bit: mulberry32 (`createRng`), Fisher–Yates (`shuffleInPlace`) and
`mixSeed` (src/engine/shared/rng.ts). The split and the per-epoch training order
come from these, so the same seed gives the same groups in the same order as in the app."""
from __future__ import annotations

from typing import MutableSequence

M32 = 0xFFFFFFFF


def imul(a: int, b: int) -> int:
    """Math.imul on uint32 representations (the result as uint32)."""
    return ((a & M32) * (b & M32)) & M32


class Rng:
    """mulberry32; `state` resumes the stream exactly (`Rng(rng.state)`)."""

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & M32

    def next(self) -> float:
        a = self.state = (self.state + 0x6D2B79F5) & M32
        t = imul(a ^ (a >> 15), a | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296

    def int(self, n: int) -> int:
        """Uniform integer in [0, n): floor(next() · n)."""
        return int(self.next() * n)


def shuffle_in_place(items: MutableSequence, rng: Rng) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.int(i + 1)
        items[i], items[j] = items[j], items[i]


def mix_seed(a: int, b: int) -> int:
    """A well-spread 32-bit seed from two integers (the app's splitmix-style finaliser)."""
    h = (imul(a ^ 0x9E3779B9, 0x85EBCA6B) + imul(b + 0x632BE5AB, 0xC2B2AE35)) & M32
    h ^= h >> 16
    h = imul(h, 0x7FEB352D)
    h ^= h >> 15
    h = imul(h, 0x846CA68B)
    h ^= h >> 16
    return h
