"""The multi-node rehearsal's own invariants and fault table (bench/cluster.py)."""

from __future__ import annotations

from typing import Any

from bench.soak_learners import Log

FAULTS = ("kill -9 web", "PostgreSQL")  # the windows in which a 5xx is allowed
GRACE = 2.0


def failures(log: Log, began: float, ended: float, *, but: str = "") -> int:
    """Failed answers (5xx, failed connections) from `began` to `ended`; with `but`, those
    in the window of another fault (not named `but`) left out."""
    others = [
        (b - 0.5, e + GRACE)
        for name, b, e in log.outages
        if name != but and any(f in name for f in FAULTS)
    ]
    return sum(
        1
        for t, _, s in log.answers
        if s >= 500 and began <= t <= ended and not (but and any(b <= t <= e for b, e in others))
    )


def cluster_invariants(rehearsal: Any, threads: int) -> list[tuple[str, bool, str]]:
    from django.db.models import Count

    from exercises.models import Submission, SubmissionStatus
    from progress.models import XPAward

    rows = []
    submissions = Submission.objects.all()
    graded = submissions.filter(status=SubmissionStatus.GRADED, graded_at__isnull=False).count()
    passed_by = set(submissions.filter(passed=True).values_list("user_id", flat=True))
    paid = dict(
        XPAward.objects.filter(source_type="exercise", source_id=rehearsal.exercise_id)
        .values_list("user_id").annotate(n=Count("id"))
    )  # fmt: skip
    wrong = [u for u in passed_by | set(paid) if paid.get(u, 0) != (u in passed_by)]
    regraded = submissions.filter(attempts__gt=1).count()
    rows.append(("every submission graded exactly once",
                 graded == submissions.count() > 0 and not wrong,
                 f"{submissions.count()} submissions, {graded} graded, {len(wrong)} learners "
                 f"not paid exactly once, {regraded} claimed again after a lost worker, "
                 f"{rehearsal.grading_at_kill} grading when worker-a was killed"))  # fmt: skip

    log = rehearsal.log
    if rehearsal.web_kill is None:
        rows.append(("web kill: few failed before marked down, none after", False, "not run"))
    else:
        began, down = rehearsal.web_kill
        name = next(n for n, b, _ in log.outages if b == began)
        during = failures(log, began - 0.5, down + GRACE)
        after = failures(log, down + GRACE, down + GRACE + 10, but=name)
        rows.append(("web kill: few failed before marked down, none after",
                     during <= threads and after == 0,
                     f"marked down {down - began:.1f}s after the kill; {during} failed "
                     f"before (limit {threads}), {after} in the 10s after"))  # fmt: skip
    reads = rehearsal.reads
    rows.append(("a write through node A read at once through node B",
                 reads["checked"] > 0 and reads["stale"] == 0,
                 f"{reads['checked']} writes, {reads['stale']} stale reads, "
                 f"{reads['not_modified']} answered 304"))  # fmt: skip
    return rows


def print_faults(log: Log) -> None:
    print("\nfault                                                   failed during  after 10s")
    for name, began, ended in log.outages:
        during = failures(log, began - 0.5, ended + GRACE, but=name)
        after = failures(log, ended + GRACE, ended + GRACE + 10, but=name)
        print(f"{name[:55]:<55}  {during:>13}  {after:>9}")
