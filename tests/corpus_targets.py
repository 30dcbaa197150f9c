"""The search corpus's targets: what share of its held-out cases the matcher must answer right (the corpus's tests hold
the engineer's part to its target; the benchmark's smoke run holds both parts, the blind one's 3,780 cases too slow
for the unit tier)."""

from __future__ import annotations

#: Issue 32's target for the held-out part its engineer wrote before the matcher.
HELD_OUT_TARGET = 0.95
#: Under the blind part's share (2,795 of 3,780: 0.739, after the 128th reader's cases), by a margin of 35 cases: each
#: reader's cases were first measured at 0.80, 0.70, 0.47, 0.33, 0.47, 0.47, 0.57, 0.33, 0.27, 0.33, 0.33, 0.37, 0.37,
#: 0.43, 0.43, 0.47, 0.40, 0.30, 0.57, 0.53, 0.57, 0.43, 0.40, 0.53, 0.50, 0.43, 0.80, 0.53, 0.57, 0.43, 0.37, 0.43,
#: 0.50, 0.73, 0.80, 0.60, 0.73, 0.63, 0.60, 0.70, 0.47, 0.60, 0.80, 0.90, 0.73, 0.90, 0.67, 0.60, 0.77, 0.73, 0.87,
#: 0.93, 0.73, 0.73, 0.70, 0.77, 0.83, 0.77, 0.50, 0.43, 0.83, 0.73, 0.83, 0.90, 0.83, 0.87, 0.73, 0.87, 0.83, 0.67,
#: 0.83, 0.73, 0.80, 0.67, 0.50, 0.80, 0.67, 0.73, 0.60, 0.80, 0.57, 0.83, 0.57, 0.43, 0.73, 0.63, 0.53, 0.50, 0.67,
#: 0.47, 0.60, 0.60, 0.60, 0.50, 0.40, 0.70, 0.70, 0.77, 0.70, 0.77, 0.80, 0.60, 0.77, 0.70, 0.70, 0.73, 0.70, 0.90,
#: 0.73, 0.83, 0.70, 0.80, 0.80, 0.83, 0.70, 0.70, 0.83, 0.73, 0.80, 0.77, 0.80, 0.80, 0.83, 0.83, 0.77 and 0.90,
#: and general rules drawn from their misses answer more since. Far below the target: the figure that matters
#: (BENCHMARKS.md).
BLIND_FLOOR = 0.73
