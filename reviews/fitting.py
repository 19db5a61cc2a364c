"""Fitting FSRS parameters to review logs: the maintained optimizer (`fsrs-rs-python`, Rust, no
PyTorch), and a test of the fit against the defaults on held-out logs before it is used.

The logs are split in time, as the open srs-benchmark does: the items whose last review is
among the latest TEST_SHARE of them are held out; the optimizer sees the earlier ones. The
fit is adopted only when it predicts the held-out reviews better than the defaults: a lower
log loss, and an RMSE (bins) no worse.

Days between reviews are counted as the scheduler counts them (whole 24-hour periods, UTC:
py-fsrs' `review_card`), so same-day reviews (delta 0) are the library's short-term ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import fsrs
import fsrs_rs_python as fsrs_rs

from reviews.scheduling import DEFAULT_PARAMETERS

# Anki advises the defaults below about 1,000 reviews (py-fsrs' optimizer returns them below
# 512): a quest is fitted from this many review logs on.
MIN_REVIEWS = 1000
TEST_SHARE = 0.2

# One card's reviews, oldest first: (when, rating 1-4).
History = Sequence[tuple[datetime, int]]


@dataclass(frozen=True)
class Fit:
    parameters: list[float]
    reviews: int
    train_items: int
    test_items: int
    log_loss: float
    rmse: float
    default_log_loss: float
    default_rmse: float
    adopted: bool
    seconds: float


class NotEnoughReviews(Exception):
    """Too few reviews a day or more apart to fit and to test a fit."""


def items_of(history: History) -> list[tuple[datetime, fsrs_rs.FSRSItem]]:
    """The optimizer's items of one card: each review that came a day or more after the one
    before it, with the history up to it (the optimizer predicts its last review)."""
    reviews: list[fsrs_rs.FSRSReview] = []
    items: list[tuple[datetime, fsrs_rs.FSRSItem]] = []
    last: datetime | None = None
    for at, rating in history:
        delta = (at - last).days if last is not None else 0
        reviews.append(fsrs_rs.FSRSReview(rating, delta))
        if delta > 0:
            item = fsrs_rs.FSRSItem(list(reviews))
            if item.long_term_review_cnt() > 0:
                items.append((at, item))
        last = at
    return items


def fit(histories: Iterable[History]) -> Fit:
    """Fit parameters to the cards' histories and test them against the defaults on the held-out
    latest reviews. Raises NotEnoughReviews."""
    started = time.perf_counter()
    reviews = 0
    dated: list[tuple[datetime, fsrs_rs.FSRSItem]] = []
    for history in histories:
        reviews += len(history)
        dated += items_of(history)
    dated.sort(key=lambda pair: pair[0])
    cut = int(len(dated) * (1 - TEST_SHARE))
    train = [item for _, item in dated[:cut]]
    test = [item for _, item in dated[cut:]]
    if not train or not test:
        raise NotEnoughReviews()
    parameters = [
        float(p) for p in fsrs_rs.FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(train)
    ]
    fitted = _evaluate(parameters, test)
    defaults = _evaluate(list(DEFAULT_PARAMETERS), test)
    return Fit(
        parameters=parameters,
        reviews=reviews,
        train_items=len(train),
        test_items=len(test),
        log_loss=fitted.log_loss,
        rmse=fitted.rmse_bins,
        default_log_loss=defaults.log_loss,
        default_rmse=defaults.rmse_bins,
        adopted=_usable(parameters)
        and fitted.log_loss < defaults.log_loss
        and fitted.rmse_bins <= defaults.rmse_bins,
        seconds=time.perf_counter() - started,
    )


def _evaluate(parameters: list[float], items: list[fsrs_rs.FSRSItem]) -> fsrs_rs.ModelEvaluation:
    return fsrs_rs.FSRS(parameters).evaluate(items)


def _usable(parameters: list[float]) -> bool:
    """The scheduler takes them (py-fsrs checks each against its bounds)."""
    try:
        fsrs.Scheduler(parameters=parameters)
    except ValueError:
        return False
    return True
