"""Shared test setup.

Hypothesis runs without a per-example deadline: the machines that run the suite are shared, and a
slow example is not a failure of the rules.
"""

from hypothesis import settings

settings.register_profile("halali", deadline=None)
settings.load_profile("halali")
