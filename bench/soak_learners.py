"""The soak's learners (bench/soak.py): what each does, through a client that retries as an app
does, and the log of what they got (the checks read it)."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

GOOD_CSV = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,12,12,50257,3072\n"
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)


# --- The learners ----------------------------------------------------------------------------


@dataclass
class Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: list[tuple[float, str, int]] = field(default_factory=list)
    outages: list[tuple[str, float, float]] = field(default_factory=list)
    completed: dict[int, set[str]] = field(default_factory=dict)
    replies: list[int] = field(default_factory=list)
    # The Markdown bomber's comments and how long each post or edit of one took (seconds).
    bombs: set[int] = field(default_factory=set)
    bomb_seconds: list[float] = field(default_factory=list)
    # (when it ended, how long it took, status) of each answer timed.
    timings: list[tuple[float, float, int]] = field(default_factory=list)

    def answer(self, what: str, status: int, seconds: float | None = None) -> None:
        with self.lock:
            now = time.monotonic()
            self.answers.append((now, what, status))
            if seconds is not None:
                self.timings.append((now, seconds, status))


class Client:
    def __init__(self, port: int, token: str, log: Log, host: str = "127.0.0.1",
                 headers: dict[str, str] | None = None) -> None:  # fmt: skip
        self.port, self.token, self.log = port, token, log
        self.host, self.headers = host, headers or {}

    def call(self, method: str, path: str, body=None, what: str = "") -> tuple[int, dict]:
        """One request; retried while the answer is 500/502/503 or the connection fails (a
        client retries; every write here is idempotent or keyed)."""
        for attempt in range(20):
            began = time.monotonic()
            try:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                conn.request(
                    method,
                    path,
                    body=json.dumps(body) if body is not None else None,
                    headers={
                        "X-Session-Token": self.token,
                        "Content-Type": "application/json",
                        **self.headers,
                    },
                )
                response = conn.getresponse()
                status, raw = response.status, response.read()
                conn.close()
            except OSError:
                self.log.answer(what or path, 599, time.monotonic() - began)
                time.sleep(0.5)
                continue
            self.log.answer(what or path, status, time.monotonic() - began)
            if status == 429:
                time.sleep(1 + attempt * 0.2)
                continue
            if status >= 500:
                time.sleep(0.5)
                continue
            try:
                return status, json.loads(raw) if raw else {}
            except ValueError:
                return status, {}
        return status, {}


Checks = dict[str, list[tuple[int, dict[str, Any]]]]


def lesson_checks(slugs: list[str]) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """For each lesson a learner completes by its checks alone (no table exercise): its checks'
    ids, each with a right answer."""
    from exercises.models import Exercise
    from lessons.checks import CHECK_TYPES
    from lessons.models import Block

    with_table = set(Exercise.objects.values_list("lesson__slug", flat=True))
    checks: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    blocks = Block.objects.filter(kind="check", lesson__slug__in=slugs).order_by(
        "lesson__quest", "lesson__position", "position"
    )
    for slug, check_id, spec in blocks.values_list("lesson__slug", "id", "spec"):
        checks.setdefault(slug, []).append((check_id, CHECK_TYPES[spec["type"]].right_answer(spec)))
    return {slug: found for slug, found in checks.items() if slug not in with_table}


def work(learner_id: int, client: Client, lessons: list[str], exercise_id: int, log: Log,
         peers: list[tuple[int, Client]], rng: random.Random, checks: Checks) -> None:  # fmt: skip
    done: set[str] = set()
    for slug in rng.sample(lessons, 3):
        if slug in checks:  # a lesson that asks checks is completed by answering them
            answered = [
                client.call("POST", f"/api/v1/checks/{check_id}/answers", {"answer": answer},
                            "check")[0]
                for check_id, answer in checks[slug]
            ]  # fmt: skip
            if set(answered) == {200}:
                done.add(slug)
            continue
        status, _ = client.call("POST", f"/api/v1/lessons/{slug}/complete", what="complete")
        if status in (200, 201):
            done.add(slug)
    # Two devices with overlapping offline histories: shared events (same ids), and the same
    # lessons under other ids, sent from both devices, each batch twice.
    offline = rng.sample(lessons, 5)
    now = time.time()
    events = {
        slug: {"id": str(uuid.uuid4()), "type": "lesson_completed", "lesson": slug,
               "occurred_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 3600 * i))}
        for i, slug in enumerate(offline)
    }  # fmt: skip
    phone = [events[s] for s in offline[:4]]
    tablet = [events[s] for s in offline[2:]] + [dict(events[offline[1]], id=str(uuid.uuid4()))]
    for device, batch in (("phone", phone), ("tablet", tablet), ("phone", phone)):
        status, body = client.call(
            "POST", "/api/v1/me/progress/sync", {"device_id": device, "events": batch}, "sync"
        )
        if status == 200:  # a lesson with checks not yet passed is refused (checks_required)
            refused = {r["id"] for r in body.get("rejected", [])}
            done.update(e["lesson"] for e in batch if e["id"] not in refused)
    client.call(
        "POST", f"/api/v1/exercises/{exercise_id}/submissions/",
        {"format": "csv", "content": GOOD_CSV}, "submit",
    )  # fmt: skip
    slug = rng.choice(lessons)
    status, comment = client.call(
        "POST", f"/api/v1/lessons/{slug}/comments/", {"body": f"Notes from {learner_id}"}, "comment"
    )
    if status == 201 and peers:
        _, peer = rng.choice(peers)
        status, reply = peer.call(
            "POST", f"/api/v1/lessons/{slug}/comments/",
            {"body": "Good point", "parent": comment["id"]}, "reply",
        )  # fmt: skip
        if status == 201:
            with log.lock:
                log.replies.append(reply["id"])
    client.call("GET", "/api/v1/me/progress", what="progress")
    client.call("GET", "/api/v1/me/", what="me")
    with log.lock:
        log.completed.setdefault(learner_id, set()).update(done)


def learner_threads(clients: list[tuple[int, Client]], lessons: list[str], exercise_id: int,
                    log: Log, *, seconds: float, threads: int, rng: random.Random,
                    started: float, checks: Checks | None = None) -> list[threading.Thread]:  # fmt: skip
    """`threads` client threads (not started) that take the learners in a shuffled order, each
    learner beginning at its share of `seconds` after `started` (time.monotonic()), and `work`
    (`checks`: lesson_checks of the lessons; read here when not given)."""
    checks = lesson_checks(lessons) if checks is None else checks
    queue = list(enumerate(clients))
    rng.shuffle(queue)
    pace = seconds / max(1, len(queue))  # spread the learners over the fault plan
    lock = threading.Lock()

    def client_thread(seed: int) -> None:
        thread_rng = random.Random(seed)
        while True:
            with lock:
                if not queue:
                    return
                index, (learner_id, client) = queue.pop()
            time.sleep(max(0.0, started + index * pace - time.monotonic()))
            peers = [c for c in clients if c[0] != learner_id]
            work(learner_id, client, lessons, exercise_id, log, peers, thread_rng, checks)

    return [threading.Thread(target=client_thread, args=(i,)) for i in range(threads)]


# Python-Markdown took 12.5 s and 3.6 s of CPU on these (issue 25); each is under the length limit.
MARKDOWN_BOMBS = ("[" * 4990, "*[" * 1660)


def bomb(client: Client, lessons: list[str], log: Log, until: float, rng: random.Random) -> None:
    """A learner who posts Markdown bombs and edits them one character at a time (defeating
    any render cache) until `until` (time.monotonic())."""
    n = 0
    while time.monotonic() < until:
        source = MARKDOWN_BOMBS[n % len(MARKDOWN_BOMBS)]
        began = time.monotonic()
        status, comment = client.call(
            "POST", f"/api/v1/lessons/{rng.choice(lessons)}/comments/", {"body": source},
            "bomb-post",
        )  # fmt: skip
        with log.lock:
            log.bomb_seconds.append(time.monotonic() - began)
        if status != 201:
            continue
        with log.lock:
            log.bombs.add(comment["id"])
        for _ in range(3):
            n += 1
            began = time.monotonic()
            client.call(
                "PATCH", f"/api/v1/comments/{comment['id']}/",
                {"body": source[:-1] + str(n % 10)}, "bomb-edit",
            )  # fmt: skip
            with log.lock:
                log.bomb_seconds.append(time.monotonic() - began)
        n += 1
