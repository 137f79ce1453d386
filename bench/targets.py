"""A benchmark target: one figure of an issue's table, its goal, and whether it is met.

``bench/observe.py`` prints issue 25's observation rows with :func:`print_targets`;
other bench modules return their rows as :class:`Target` lists for it
(``bench/observe_inferred.py``: ``issue25_rows(samples)``).
"""

from __future__ import annotations

import msgspec

__all__ = ["Target", "print_targets"]


class Target(msgspec.Struct):
    """One row: ``value`` in ``unit`` against ``target`` (``higher_is_better`` says which way)."""

    figure: str
    value: float
    unit: str
    target: float
    higher_is_better: bool

    @property
    def met(self) -> bool:
        return self.value >= self.target if self.higher_is_better else self.value <= self.target


def print_targets(title: str, targets: list[Target]) -> None:
    """One line per target: the figure, its value, the goal and ``met`` / ``NOT MET``."""
    print()
    print(f"{title:62} {'figure':>10} {'target':>10}  result")
    for t in targets:
        sign = "≥" if t.higher_is_better else "≤"
        figure = f"{t.value:.2f}x" if t.unit == "x" else f"{t.value:.2f} {t.unit}"
        goal = f"{sign} {t.target:g}{t.unit if t.unit == 'x' else ' ' + t.unit}"
        print(f"{t.figure:62} {figure:>10} {goal:>10}  {'met' if t.met else 'NOT MET'}")
