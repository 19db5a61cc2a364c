"""The rehearsal's Redis faults (bench/cluster.py). Every node reaches Redis (the cache, the
boards and, on Redis, the broker) through a proxy of the rehearsal's own, in a process of its
own, which loses Redis for --redis-loss seconds in the middle of the load (connections reset,
new ones refused: a balancer that stops forwarding it), and then makes it stop answering for
--redis-freeze seconds (connections accepted, nothing answered: a network dropping packets).
The machine's Redis itself is never stopped.

Witnesses, learners of this phase's own, each read their progress and a lesson through both
web nodes before the loss (both nodes cache them), answer that lesson's checks (XP, the lesson
completed) and comment on it during the loss, and from Redis's return read both again through
both nodes, also with the ETags they were given before. The invariants:

- every read after Redis returns equals the database: the witnesses' reads for --read-window
  seconds from the return (XP, the lesson completed, its comment count; a 304 to an ETag of
  before is stale), then every learner's progress through both nodes;
- every board equals the ledger within 60 s of the return: the week's, the month's and the
  all-time board, read from Redis, against the XP per learner in the database, polled from the
  return on;
- a Redis that stops answering: no 5xx, and every request answered within the client's
  timeout, during the freeze and the 10 s after.

The answers' counts and latency before, during and after the loss and the freeze are printed.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.soak_learners import GOOD_CSV, Client
from bench.soak_stack import Proxy

NODES = ("web-a", "web-b")
BEFORE = 15.0  # seconds of answers measured before the loss
AFTER = 30.0  # and after the return
SETTLE = 10.0  # and after the freeze
BOARDS_WITHIN = 60.0
CLIENT_TIMEOUT = 30.0  # soak_learners.Client's and Rehearsal.fetch's
PROGRESS = "/api/v1/me/progress"


def proxied(url: str, host: str, port: int) -> tuple[str, tuple[str, int]]:
    """`url` as the nodes reach it, through the proxy on host:port; and the Redis behind it."""
    parts = urlsplit(url)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{host}:{port}" if credentials else f"{host}:{port}"
    return urlunsplit(parts._replace(netloc=netloc)), (parts.hostname or "127.0.0.1",
                                                       parts.port or 6379)  # fmt: skip


def _serve(port: int, backend: tuple[str, int], host: str, control: Any) -> None:
    proxy = Proxy(port, backend, host=host)
    while (command := control.recv()) != "stop":
        getattr(proxy, command)()
        control.send(command)
    control.send(command)


class ProxyProcess:
    """soak_stack.Proxy (cut, restore, freeze, thaw) in a process of its own, so that the
    rehearsal's own threads never slow the nodes' Redis calls."""

    def __init__(self, port: int, backend: tuple[str, int], host: str) -> None:
        context = multiprocessing.get_context("spawn")
        self._control, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(port, backend, host, child), daemon=True
        )
        self.process.start()
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as probe:
                if probe.connect_ex((host, port)) == 0:
                    return
            if time.monotonic() > deadline or not self.process.is_alive():
                raise RuntimeError("the Redis proxy did not start")
            time.sleep(0.1)

    def command(self, name: str) -> None:
        self._control.send(name)
        self._control.recv()

    def stop(self) -> None:
        if self.process.is_alive():
            with contextlib.suppress(OSError, EOFError):
                self.command("stop")
            self.process.join(5)
        if self.process.is_alive():
            self.process.terminate()


@dataclass
class Witness:
    user_id: int
    token: str
    slug: str
    lesson_id: int
    checks: list[tuple[int, dict[str, Any]]]
    etags: dict[tuple[str, str], str] = field(default_factory=dict)  # (node, path) -> ETag
    wrote: bool = False


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)] if ordered else 0


class RedisFaults:
    def __init__(self, rehearsal: Any, proxy: ProxyProcess, witnesses: list[Witness],
                 learners: list[tuple[int, str]], args: Any) -> None:  # fmt: skip
        self.rehearsal, self.proxy, self.witnesses = rehearsal, proxy, witnesses
        self.learners, self.args, self.log = learners, args, rehearsal.log
        self.reads = {"checked": 0, "stale": 0, "with_etag": 0, "changed": 0, "during": 0}
        self.everyone = {"checked": 0, "stale": 0, "at": 0.0}
        self.stale: list[str] = []
        self.boards: tuple[float | None, str] = (None, "not checked")
        self.times: dict[str, float] = {}
        self._steady_until = math.inf
        self._lock = threading.Lock()  # the counts, from the witnesses' threads

    # --- the plan ------------------------------------------------------------------------

    def run(self) -> None:
        from django.db import connection

        steady = threading.Thread(target=self._steady)
        try:
            for witness in self.witnesses:
                self._warm(witness)
            steady.start()
            self._lose()
            self._check_reads()
            self._check_boards()
            self._freeze()
        finally:
            # Redis back whatever happened above, or nothing drains after.
            if "cut" in self.times and "returned" not in self.times:
                self.proxy.command("restore")
            if "frozen" in self.times and "thawed" not in self.times:
                self.proxy.command("thaw")
            self._steady_until = 0
            if steady.is_alive():
                steady.join()
            connection.close()

    def _lose(self) -> None:
        self.times["cut"] = cut = time.monotonic()
        self.proxy.command("cut")
        self._each_witness(lambda index, witness: self._write(witness, NODES[index % 2]))
        # Answered from the database meanwhile: fresh too.
        self._each_witness(lambda index, witness: self._read(witness, NODES[1 - index % 2],
                                                             during=True))  # fmt: skip
        time.sleep(max(0.0, cut + self.args.redis_loss - time.monotonic()))
        self.proxy.command("restore")
        self.times["returned"] = time.monotonic()
        self.rehearsal.outage("Redis lost (connections reset, new ones refused)", cut,
                              self.times["returned"])  # fmt: skip

    def _freeze(self) -> None:
        self.times["frozen"] = frozen = time.monotonic()
        self.proxy.command("freeze")
        writers = [threading.Thread(target=self._write_silent, args=(w,)) for w in self.witnesses]
        for writer in writers:
            writer.start()
        time.sleep(self.args.redis_freeze)
        self.proxy.command("thaw")
        self.times["thawed"] = thawed = time.monotonic()
        self.rehearsal.outage("Redis not answering (connections accepted, kept silent)",
                              frozen, thawed)  # fmt: skip
        for writer in writers:
            writer.join()
        time.sleep(max(0.0, thawed + SETTLE - time.monotonic()))

    # --- what the witnesses do ----------------------------------------------------------

    def _each_witness(self, act) -> None:
        """act(index, witness) for every witness at once, one thread each."""
        from django.db import connection

        def one(index: int, witness: Witness) -> None:
            try:
                act(index, witness)
            finally:
                connection.close()  # this thread's own

        threads = [threading.Thread(target=one, args=item) for item in enumerate(self.witnesses)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _fetch(self, node: str, method: str, path: str, token: str, headers=None, body=None):
        try:
            return self.rehearsal.fetch(node, method, path, token, headers, body)
        except (OSError, ValueError):
            self.log.answer(f"direct {method}", 599, CLIENT_TIMEOUT)
            return 599, {}, {}

    def _warm(self, witness: Witness) -> None:
        for node in NODES:
            for path in (PROGRESS, f"/api/v1/lessons/{witness.slug}/"):
                _, headers, _ = self._fetch(node, "GET", path, witness.token)
                witness.etags[node, path] = headers.get("ETag", "")

    def _write(self, witness: Witness, node: str) -> None:
        answered = [
            self._fetch(
                node,
                "POST",
                f"/api/v1/checks/{check_id}/answers",
                witness.token,
                body={"answer": answer},
            )
            for check_id, answer in witness.checks
        ]
        posted, _, _ = self._fetch(node, "POST", f"/api/v1/lessons/{witness.slug}/comments/",
                                   witness.token, body={"body": "Written while Redis was lost"})  # fmt: skip
        witness.wrote = posted == 201 and all(
            status == 200 and body.get("correct") for status, _, body in answered
        )
        if not witness.wrote:
            print(f"  Redis lost: the writes of {witness.slug} answered "
                  f"{[s for s, _, _ in answered]}, {posted}")  # fmt: skip

    def _write_silent(self, witness: Witness) -> None:
        """A comment and a submission (each publishes a task) while Redis does not answer."""
        client = Client(self.args.port, witness.token, self.log)
        client.call("POST", f"/api/v1/lessons/{witness.slug}/comments/",
                    {"body": "Written while Redis did not answer"}, "silent comment")  # fmt: skip
        client.call("POST", f"/api/v1/exercises/{self.rehearsal.exercise_id}/submissions/",
                    {"format": "csv", "content": GOOD_CSV}, "silent submit")  # fmt: skip

    def _steady(self) -> None:
        """Reads through the balancer all along the phase: its answers' latency."""
        clients = [Client(self.args.port, token, self.log) for _, token in self.learners]
        paths = [PROGRESS, "/api/v1/leaderboard?period=week",
                 *(f"/api/v1/lessons/{w.slug}/" for w in self.witnesses)]  # fmt: skip
        n = 0
        while time.monotonic() < self._steady_until:
            clients[n % len(clients)].call("GET", paths[n % len(paths)], what="steady read")
            n += 1

    # --- every read after Redis returns -----------------------------------------------

    def _truth(self, witness: Witness) -> tuple[int, bool, int]:
        from community.selectors import comment_counts_for_lessons
        from progress.models import LearnerStats, LessonCompletion

        xp = LearnerStats.objects.filter(user_id=witness.user_id).values_list("xp_total")
        done = LessonCompletion.objects.filter(user_id=witness.user_id, lesson_id=witness.lesson_id)
        comments = comment_counts_for_lessons(lesson_ids=[witness.lesson_id])
        return (xp.first() or (0,))[0], done.exists(), comments.get(witness.lesson_id, 0)

    def _read(self, witness: Witness, node: str, *, during: bool = False) -> None:
        lesson = f"/api/v1/lessons/{witness.slug}/"
        before = self._truth(witness)
        status, _, progress = self._fetch(node, "GET", PROGRESS, witness.token)
        l_status, _, page = self._fetch(node, "GET", lesson, witness.token)
        old = [
            self._fetch(node, "GET", path, witness.token,
                        {"If-None-Match": witness.etags[node, path]})[0]
            for path in (PROGRESS, lesson) if witness.etags.get((node, path))
        ]  # fmt: skip
        xp, done, comments = after = self._truth(witness)
        fresh = (
            status == l_status == 200 and progress.get("xp") == xp
            and (witness.slug in progress.get("completed_lessons", [])) == done
            and page.get("comment_count") == comments
            and not (witness.wrote and 304 in old)
        )  # fmt: skip
        with self._lock:
            if before != after:
                self.reads["changed"] += 1  # someone else commented meanwhile: no verdict
                return
            self.reads["during" if during else "checked"] += 1
            self.reads["with_etag"] += len(old)
            if not fresh:
                self.reads["stale"] += 1
                self.stale.append(f"{witness.slug} via {node}: xp {progress.get('xp')} "
                                  f"(db {xp}), comments {page.get('comment_count')} "
                                  f"(db {comments}), {old}")  # fmt: skip

    def _check_reads(self) -> None:
        returned = self.times["returned"]
        while time.monotonic() < returned + self.args.read_window:
            for witness in self.witnesses:
                for node in NODES:
                    self._read(witness, node)
        self.everyone["at"] = time.monotonic() - returned
        for user_id, token in self.learners:
            for node in NODES:
                self._read_progress(user_id, token, node)

    def _learner_truth(self, user_id: int) -> tuple[int, set[str]]:
        from django.conf import settings

        from progress.models import LearnerStats, LessonCompletion

        xp = LearnerStats.objects.filter(user_id=user_id).values_list("xp_total", flat=True)
        slugs = LessonCompletion.objects.filter(
            user_id=user_id, lesson__quest__slug=settings.DEMO_QUEST_SLUG
        ).values_list("lesson__slug", flat=True)
        return xp.first() or 0, set(slugs)

    def _read_progress(self, user_id: int, token: str, node: str) -> None:
        for _ in range(3):  # a grade that lands between the reads: read again
            before = self._learner_truth(user_id)
            status, _, body = self._fetch(node, "GET", PROGRESS, token)
            if before == self._learner_truth(user_id):
                break
        self.everyone["checked"] += 1
        if status != 200 or (body.get("xp"), set(body.get("completed_lessons", []))) != before:
            self.everyone["stale"] += 1
            self.stale.append(f"learner {user_id} via {node}: xp {body.get('xp')} "
                              f"(db {before[0]})")  # fmt: skip

    # --- every board equals the ledger -------------------------------------------------

    def _ledger(self) -> dict[str, dict[int, int]]:
        from django.db.models import Sum

        from progress import boards
        from progress.models import LearnerDayXP, LearnerStats
        from progress.selectors.leaderboards import leaderboard_first_day

        visible = {"user__is_active": True, "user__show_on_leaderboard": True}
        truth = {
            "all": dict(
                LearnerStats.objects.filter(xp_total__gt=0, **visible).values_list(
                    "user_id", "xp_total"
                )
            )
        }
        for period in ("week", "month"):
            first = leaderboard_first_day(period=period, today=boards.utc_today())
            rows = LearnerDayXP.objects.filter(day__gte=first, **visible).values("user_id")
            truth[period] = {
                user_id: xp
                for user_id, xp in rows.annotate(xp=Sum("xp")).values_list("user_id", "xp")
                if xp
            }
        return truth

    def _boards(self) -> dict[str, dict[int, int]] | None:
        from progress import boards

        boards.forget_failures()  # this process's own pause after the loss
        try:
            return {
                period: dict(boards.read(period=period, count=100_000, viewer_id=None).top)
                for period in ("week", "month", "all")
            }
        except boards.BoardUnavailable:
            return None

    def _check_boards(self) -> None:
        returned = self.times["returned"]
        while True:
            truth, found = self._ledger(), self._boards()
            now = time.monotonic()
            if found is not None and found == truth == self._ledger():
                learners = len(truth["all"])
                self.boards = (now - returned, f"{learners} learners with XP")
                return
            if now > returned + BOARDS_WITHIN:
                missing = "boards not built" if found is None else ", ".join(
                    f"{p}: {sum(found[p].get(u) != xp for u, xp in truth[p].items())} differ"
                    for p in truth
                )  # fmt: skip
                self.boards = (None, missing)
                return
            time.sleep(1)

    # --- the report ---------------------------------------------------------------------

    def invariants(self) -> list[tuple[str, bool, str]]:
        if "thawed" not in self.times:
            return [("Redis faults: the phase ran to its end", False, f"reached {self.times}")]
        reads, everyone = self.reads, self.everyone
        written = sum(w.wrote for w in self.witnesses)
        took, detail = self.boards
        frozen = [(sec, status) for began, sec, status in self._timed()
                  if self.times["frozen"] <= began < self.times["thawed"] + SETTLE]  # fmt: skip
        bad = sum(status >= 500 for _, status in frozen)
        slowest = max((sec for sec, _ in frozen), default=0.0)
        return [
            ("every read after Redis returns equals the database",
             reads["checked"] > 0 and written == len(self.witnesses) and reads["stale"] == 0
             and everyone["checked"] > 0 and everyone["stale"] == 0,
             f"{len(self.witnesses)} witnesses wrote during the loss ({written} in full); "
             f"{reads['checked']} reads through both nodes in the {self.args.read_window:.0f}s "
             f"after the return ({reads['with_etag']} with an ETag of before) and "
             f"{everyone['checked']} of every learner's progress {everyone['at']:.0f}s after: "
             f"{reads['stale'] + everyone['stale']} stale ({reads['during']} during the loss; "
             f"{reads['changed']} left out, changed meanwhile){self._examples()}"),
            ("every board equals the ledger within 60s of the return", took is not None,
             f"week, month and all-time equal {took:.1f}s after the return ({detail})"
             if took is not None else f"not equal 60s after the return: {detail}"),
            ("Redis not answering: no 5xx, every answer in time",
             bool(frozen) and bad == 0 and slowest < CLIENT_TIMEOUT,
             f"{len(frozen)} answers in its {self.args.redis_freeze:.0f}s and the "
             f"{SETTLE:.0f}s after: {bad} 5xx or failed, slowest {slowest:.1f}s "
             f"(client timeout {CLIENT_TIMEOUT:.0f}s)"),
        ]  # fmt: skip

    def _examples(self) -> str:
        return f"; e.g. {'; '.join(self.stale[:3])}" if self.stale else ""

    def _timed(self) -> list[tuple[float, float, int]]:
        """(began, seconds, status) of every timed answer."""
        with self.log.lock:
            return [(ended - sec, sec, status) for ended, sec, status in self.log.timings]

    def latency_lines(self) -> list[str]:
        t = self.times
        if "thawed" not in t:
            return []
        windows = [
            (f"{BEFORE:.0f}s before the loss", t["cut"] - BEFORE, t["cut"]),
            ("Redis lost", t["cut"], t["returned"]),
            ("after its return", t["returned"], min(t["returned"] + AFTER, t["frozen"])),
            ("Redis not answering", t["frozen"], t["thawed"]),
            (f"{SETTLE:.0f}s after it answers", t["thawed"], t["thawed"] + SETTLE),
        ]
        timed = self._timed()
        lines = ["\nanswers (all clients)      count  5xx/failed  p50 ms  p99 ms  max ms"]
        for name, began, ended in windows:
            seconds = [sec for start, sec, _ in timed if began <= start < ended]
            bad = sum(status >= 500 for start, _, status in timed if began <= start < ended)
            p50, p99 = percentile(seconds, 0.5), percentile(seconds, 0.99)
            lines.append(f"{name:<26} {len(seconds):>5}  {bad:>10}  {p50 * 1000:>6.0f}  "
                         f"{p99 * 1000:>6.0f}  {max(seconds, default=0) * 1000:>6.0f}")  # fmt: skip
        return lines
