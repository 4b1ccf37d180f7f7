"""Shared test set-up: hypothesis profiles.

Profiles (choose with ``--hypothesis-profile NAME`` or ``HYPOTHESIS_PROFILE=NAME``):

- ``ci`` (default): modest example counts so the whole suite stays fast on a small machine;
- ``dev``: a quick smoke run while editing;
- ``thorough``: ten times the ``ci`` counts, for a long run before a release.

Every property test takes its example count from the active profile; the few slow ones
(brute-force comparisons with many cards) scale theirs from ``settings.default.max_examples``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}

settings.register_profile("ci", max_examples=100, **_COMMON)
settings.register_profile("dev", max_examples=20, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
