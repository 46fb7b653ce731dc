"""Percentiles and the chi-square test, without numpy or scipy (neither is a dependency)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

TINY = 1e-300


@dataclass(frozen=True)
class Spread:
    """The middle, the tail and the worst of a set of samples."""

    p50: float
    p99: float
    max: float
    count: int


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default), ``q`` in 0..100."""
    if not values:
        raise ValueError("no samples")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def spread(values: Sequence[float]) -> Spread:
    return Spread(percentile(values, 50), percentile(values, 99), max(values), len(values))


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    dof: int
    p: float


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> ChiSquare:
    """Pearson's goodness-of-fit test of counts against expected counts (same order)."""
    if len(observed) != len(expected) or len(observed) < 2:
        raise ValueError("need two or more categories, observed and expected alike")
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    dof = len(observed) - 1
    return ChiSquare(statistic, dof, chi2_survival(statistic, dof))


def chi2_survival(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom."""
    return upper_gamma_regularized(dof / 2, x / 2)


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x): a series below ``a + 1``, Lentz's continued fraction above (Numerical Recipes)."""
    if x <= 0:
        return 1.0
    prefactor = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        return 1.0 - prefactor * _lower_series(a, x)
    return prefactor * _upper_fraction(a, x)


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    n = a
    while abs(term) > abs(total) * 1e-15:
        n += 1
        term *= x / n
        total += term
    return total


def _upper_fraction(a: float, x: float) -> float:
    b = x + 1 - a
    c, d = 1 / TINY, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > TINY else TINY)
        c = b + an / c
        c = c if abs(c) > TINY else TINY
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h
