"""The leaderboards in Redis sorted sets: ranking at a cost that does not grow with learners.

Keys (under settings.LEADERBOARD_KEY_PREFIX):
- `day:<date>`: XP per visible learner on that learner's day (`XPAward.day`, the one day rule;
  ZINCRBY after each award's commit), kept 35 days;
- `all`: all-time XP per visible learner;
- `week:<monday>`, `month:<first>`: the calendar week's / month's board (`progress.periods`),
  the ZUNIONSTORE of its day keys, built once (by the periodic refresh around today, or by the
  first reader) and then kept current by the same ZINCRBY as the days; they expire two days
  after the period's last day, once it has ended in every zone;
- `hidden`: ids of learners who must not appear (opted out or deactivated): awards skip them;
- `ready`: set by a complete rebuild. Without it (a new or flushed Redis), readers fall back to
  SQL and a rebuild is queued.

Members are `MEMBER_BASE - user_id` as fixed-width digits: Redis orders equal scores by member,
descending under ZREVRANGE, which then lists equal-XP learners by ascending id, as the SQL does.
The ledger stays the truth: `rebuild()` rewrites every key from the XP-per-day rollup its
trigger keeps. An award that cannot reach Redis is noted in the database (`MissedBoardUpdate`);
the refresh job (every 30 s) rebuilds while a note is there, so the boards are whole again
within a minute of Redis's return. Awards committed during a rebuild wait for the daily one."""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

import redis
from django.conf import settings
from django.db import transaction
from django.db.models import Q

from learning_platform import clock
from learning_platform.breaker import Breaker, breaker_for, reset_all
from learning_platform.errors import Unavailable
from progress.board_keys import (
    DAY_KEY_DAYS,
    _boards_around,
    _end_of,
    _key,
    _period_expiry,
    day_key,
    member,
    period_days,
    period_key,
    user_id_of,
    utc_today,
)
from progress.periods import PERIODS

logger = logging.getLogger(__name__)
_P = ParamSpec("_P")  # _reporting_failures keeps the signature of what it wraps
_R = TypeVar("_R")

# After a failed call, skip Redis for this long: a dead Redis costs one timeout, not one each.
PAUSE_AFTER_FAILURE = 5.0
REBUILD_LOCK_SECONDS = 600
MAINTENANCE_TIMEOUT = 120
_ZADD_CHUNK = 5000


class BoardUnavailable(Unavailable):
    """Redis is down, or the boards are not built yet: answer from SQL."""


def enabled() -> bool:
    return bool(settings.LEADERBOARD_REDIS and settings.LEADERBOARD_REDIS_URL)


# --- the connection, with a pause after a failure ----------------------------------------------


def _breaker() -> Breaker:
    # One per URL (tests point the boards at a dead Redis): a dead one pauses only itself.
    return breaker_for(f"boards {settings.LEADERBOARD_REDIS_URL}", reset_after=PAUSE_AFTER_FAILURE)


@functools.cache
def _connect(url: str, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=timeout)


def _client(*, maintenance: bool = False) -> redis.Redis:
    """The requests' client gives up after 2 s; the rebuild's waits for its unions (a month's
    board at 100,000 learners is a union of 1.3 million scores: about a second of Redis).

    A client of its own rather than the cache's: the boards may live in another Redis
    (LEADERBOARD_REDIS_URL), and the cache gives up after 0.5 s, before a rebuild's union ends."""
    url = settings.LEADERBOARD_REDIS_URL
    if _breaker().is_open():
        raise BoardUnavailable("Redis failed moments ago")
    return _connect(url, MAINTENANCE_TIMEOUT if maintenance else 2)


def _failed(error: Exception) -> BoardUnavailable:
    _breaker().failed()
    logger.warning("Leaderboard Redis unavailable: %s", error)
    return BoardUnavailable(str(error))


def _reporting_failures(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Redis errors of a maintenance call become BoardUnavailable (and pause Redis use)."""

    @functools.wraps(function)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return function(*args, **kwargs)
        except redis.RedisError as error:
            raise _failed(error) from error

    return wrapper


@_reporting_failures
def is_built() -> bool:
    """Whether a complete rebuild stands (a new or flushed Redis has none)."""
    return bool(_client().exists(_key("ready")))


@_reporting_failures
def last_rebuilt_at() -> datetime | None:
    """When the standing boards were last rebuilt in full (None: never, or Redis lost them)."""
    value = _client().get(_key("ready"))
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.decode() if isinstance(value, bytes) else str(value))
    except ValueError:
        return None  # written by a version that stored no time


def rebuild_age_samples(_: object) -> list[tuple[tuple[()], float]]:
    """lp_leaderboard_rebuild_age_seconds, read at scrape time (none without the boards)."""
    rebuilt_at = last_rebuilt_at() if enabled() else None
    if rebuilt_at is None:
        return []
    return [((), clock.elapsed((clock.now() - rebuilt_at).total_seconds(), measure="board_age"))]


def forget_failures() -> None:
    """Try Redis again at once (tests; an operator after a repair)."""
    reset_all(prefix="boards ")


# --- updates Redis missed ------------------------------------------------------------------

_missed_here = False  # this process missed an update: it queues a rebuild once Redis answers


def _note_missed(learners: int) -> None:
    """Updates for `learners` learners did not reach Redis: the boards are short until a
    rebuild, which the note asks for (here once Redis answers, else the refresh job's)."""
    global _missed_here
    from progress.models import MissedBoardUpdate

    _missed_here = True
    try:
        with transaction.atomic():  # a savepoint: a failure here never breaks the caller's
            MissedBoardUpdate.objects.create(learners=learners)
    except Exception:  # the database down too: this process still queues the rebuild
        logger.warning("Missed leaderboard update not recorded", exc_info=True)


def _answered() -> None:
    """Redis answered this process: a rebuild for what it missed, if it did."""
    global _missed_here
    _breaker().succeeded()
    if _missed_here:
        _missed_here = False
        queue_rebuild()


def missed_updates() -> list[int]:
    """Ids of the notes of updates Redis missed (at most 10,000)."""
    from progress.models import MissedBoardUpdate

    return list(MissedBoardUpdate.objects.values_list("id", flat=True)[:10_000])


def refresh() -> str:
    """The refresh job: a rebuild when Redis lost the boards or missed updates; else today's and
    tomorrow's period boards where missing. Says which."""
    if not is_built() or missed_updates():
        rebuild()
        return "rebuilt"
    ensure_period_boards()
    return "periods"


# --- awards --------------------------------------------------------------------------------

_RECORD = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call('ZINCRBY', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZINCRBY', KEYS[3], ARGV[2], ARGV[1])
redis.call('EXPIREAT', KEYS[3], ARGV[3])
for i = 4, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('ZINCRBY', KEYS[i], ARGV[2], ARGV[1]) end
end
return 1
"""


def _boards_counting(day: date) -> list[str]:
    """The period keys a day's XP belongs to: its week's and its month's (the script adds to
    those that are built)."""
    return [period_key(period, day) for period in PERIODS]


def record_awards_of_learners(*, xp_by_learner: dict[int, dict[date, int]]) -> None:
    """Add committed awards (learner -> day -> XP) to the boards, in one round trip. Never
    raises: Redis being down leaves the boards short until a rebuild (noted, so it comes within
    a minute of Redis's return); the ledger keeps the XP."""
    if not enabled() or not xp_by_learner:
        return
    try:
        client = _client()
        script = client.register_script(_RECORD)
        pipe = client.pipeline(transaction=False)
        for user_id, xp_by_day in xp_by_learner.items():
            for day, amount in sorted(xp_by_day.items()):
                keys = [_key("hidden"), _key("all"), day_key(day), *_boards_counting(day)]
                expires = _end_of(day, days_after=DAY_KEY_DAYS)
                args: list[str | int] = [member(user_id), amount, expires]
                script(keys=keys, args=args, client=pipe)
        pipe.execute()
    except (redis.RedisError, BoardUnavailable) as error:
        if not isinstance(error, BoardUnavailable):
            _failed(error)
        logger.warning("XP of %s learner(s) not added to the leaderboards", len(xp_by_learner))
        _note_missed(len(xp_by_learner))
        return
    _answered()


# --- reading ---------------------------------------------------------------------------------

_READ = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
if #KEYS > 2 and redis.call('EXISTS', KEYS[2]) == 0 then
    redis.call('ZUNIONSTORE', KEYS[2], #KEYS - 2, unpack(KEYS, 3))
    redis.call('EXPIREAT', KEYS[2], ARGV[4])
end
local top = redis.call('ZREVRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
if ARGV[2] == '' then return {1, top} end
local score = ARGV[3]
if score == '' then score = redis.call('ZSCORE', KEYS[2], ARGV[2]) or '0' end
return {1, top, score, redis.call('ZCOUNT', KEYS[2], '(' .. score, '+inf')}
"""


@dataclass(frozen=True)
class BoardRead:
    top: list[tuple[int, int]]  # (user_id, xp), best first, equal XP by ascending id
    viewer_xp: int | None
    ahead_of_viewer: int | None  # visible learners with more XP than the viewer


def read(
    *,
    period: str,
    count: int,
    viewer_id: int | None,
    viewer_xp: int | None = None,
    today: date | None = None,
) -> BoardRead:
    """The board of the period holding `today` (the viewer's day; UTC's by default): its first
    `count` learners and, for a viewer, their XP and how many visible learners have more (one
    round trip, O(log n) in Redis). `viewer_xp` is given for a viewer who is not on the board
    (opted out). Raises BoardUnavailable when Redis cannot answer or the boards are not built."""
    today = today or utc_today()
    keys = [_key("ready"), period_key(period, today)]
    expires = _end_of(today, days_after=1)
    if period in PERIODS:
        keys += [day_key(day) for day in period_days(period, today)]
        expires = _period_expiry(period, today)
    args: list[str | int] = [
        count,
        member(viewer_id) if viewer_id is not None else "",
        "" if viewer_xp is None else viewer_xp,
        expires,
    ]
    try:
        client = _client()
        answer = client.register_script(_READ)(keys=keys, args=args)
    except redis.RedisError as error:
        raise _failed(error) from error
    _answered()
    if answer[0] == 0:
        queue_rebuild()
        raise BoardUnavailable("the leaderboards are not built")
    flat = answer[1]
    top = [(user_id_of(flat[i]), int(float(flat[i + 1]))) for i in range(0, len(flat), 2)]
    if viewer_id is None:
        return BoardRead(top=top, viewer_xp=None, ahead_of_viewer=None)
    return BoardRead(top=top, viewer_xp=int(float(answer[2])), ahead_of_viewer=int(answer[3]))


# --- building ------------------------------------------------------------------------------

_BUILD_PERIOD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('ZUNIONSTORE', KEYS[1], #KEYS - 1, unpack(KEYS, 2))
redis.call('EXPIREAT', KEYS[1], ARGV[1])
return 1
"""


@_reporting_failures
def ensure_period_boards(*, today: date | None = None) -> int:
    """Build the week and month boards any zone may read now where missing (the next ones
    ahead, and kept current, so a new week costs nothing): no reader pays a union. Returns
    how many."""
    today = today or utc_today()
    client = _client(maintenance=True)
    script = client.register_script(_BUILD_PERIOD)
    built = 0
    for period, day in _boards_around(today):
        keys = [period_key(period, day), *(day_key(d) for d in period_days(period, day))]
        built += script(keys=keys, args=[_period_expiry(period, day)])
    return built


def queue_rebuild() -> None:
    """Ask a worker to rebuild the boards, at most once per REBUILD_LOCK_SECONDS."""
    from progress.tasks import rebuild_leaderboards

    try:
        if _client().set(_key("rebuild-queued"), 1, nx=True, ex=REBUILD_LOCK_SECONDS):
            rebuild_leaderboards.delay()
    except Exception:  # a broker or Redis down: the periodic refresh retries
        logger.warning("Could not queue a leaderboard rebuild", exc_info=True)


def _hidden_user_ids() -> set[int]:
    from django.contrib.auth import get_user_model

    hidden = Q(is_active=False) | Q(show_on_leaderboard=False)
    return set(get_user_model().objects.filter(hidden).values_list("id", flat=True))


def _zadd_chunks(pipe: Any, key: str, scores: Iterable[tuple[int, int]]) -> int:
    written, chunk = 0, {}
    for user_id, xp in scores:
        chunk[member(user_id)] = xp
        if len(chunk) >= _ZADD_CHUNK:
            pipe.zadd(key, chunk)
            written, chunk = written + len(chunk), {}
    if chunk:
        pipe.zadd(key, chunk)
        written += len(chunk)
    return written


@_reporting_failures
def rebuild(*, today: date | None = None) -> dict[str, int]:
    """Rewrite every board from the XP-per-day rollup and the learners' totals (both kept with
    the ledger in its own transactions). Built under fresh names, then swapped in one MULTI, so
    readers see the old boards or the new ones, never half. Returns counts of what it wrote."""
    from progress.models import LearnerDayXP, LearnerStats, MissedBoardUpdate

    today = today or utc_today()
    client = _client(maintenance=True)
    # Noted before the rollup is read: what they missed is in it (later notes wait).
    missed = missed_updates()
    hidden = _hidden_user_ids()
    staging = uuid.uuid4().hex
    first_day = today - timedelta(days=DAY_KEY_DAYS - 1)
    days = [first_day + timedelta(days=n) for n in range(DAY_KEY_DAYS + 1)]  # up to tomorrow

    def staged(key: str) -> str:
        return key + ":build:" + staging

    pipe = client.pipeline(transaction=False)
    members = 0
    rows = (
        LearnerDayXP.objects.filter(day__gte=first_day, day__lte=days[-1])
        .order_by("day")
        .values_list("day", "user_id", "xp")
        .iterator(chunk_size=20_000)
    )
    # Rows come by day, from first_day on: a day's scores are written when the next day starts.
    current_day = first_day
    scores: list[tuple[int, int]] = []
    for day, user_id, xp in rows:
        if day != current_day:
            if scores:
                members += _zadd_chunks(pipe, staged(day_key(current_day)), scores)
                pipe.execute()
            current_day, scores = day, []
        if user_id not in hidden:
            scores.append((user_id, xp))
    if scores:
        members += _zadd_chunks(pipe, staged(day_key(current_day)), scores)
    totals = (
        LearnerStats.objects.filter(xp_total__gt=0)
        .values_list("user_id", "xp_total")
        .iterator(chunk_size=20_000)
    )
    members += _zadd_chunks(
        pipe, staged(_key("all")), ((u, xp) for u, xp in totals if u not in hidden)
    )
    hidden_members = [member(u) for u in hidden]
    for start in range(0, len(hidden_members), _ZADD_CHUNK):
        pipe.sadd(staged(_key("hidden")), *hidden_members[start : start + _ZADD_CHUNK])
    pipe.execute()

    built = [k for k in (day_key(d) for d in days) if client.exists(staged(k))]
    swap = client.pipeline(transaction=True)
    swap.delete(*(day_key(d) for d in days), _key("all"), _key("hidden"))
    swap.delete(*(period_key(period, day) for period, day in _boards_around(today)))
    for key in built:
        swap.rename(staged(key), key)
        day = date.fromisoformat(key.rsplit(":", 1)[1])
        swap.expireat(key, _end_of(day, days_after=DAY_KEY_DAYS))
    for key in (_key("all"), _key("hidden")):
        if client.exists(staged(key)):
            swap.rename(staged(key), key)
    swap.set(_key("ready"), clock.now().isoformat())
    swap.delete(_key("rebuild-queued"))
    swap.execute()
    MissedBoardUpdate.objects.filter(id__in=missed).delete()
    periods = ensure_period_boards(today=today)
    return {"members": members, "hidden": len(hidden), "days": len(built), "periods": periods}


def refresh_learner(*, user_id: int, visible: bool) -> None:
    """Show or hide one learner on every board after they opted in or out, or were
    (de)activated: their days are read back from the rollup (one or two short queries)."""
    from progress.models import LearnerDayXP, LearnerStats

    if not enabled():
        return
    today = utc_today()
    first_day = today - timedelta(days=DAY_KEY_DAYS - 1)
    days = [first_day + timedelta(days=n) for n in range(DAY_KEY_DAYS + 1)]
    around = _boards_around(today)
    boards = [period_key(period, day) for period, day in around]
    who = member(user_id)
    try:
        client = _client()
        if not visible:
            pipe = client.pipeline(transaction=True)
            pipe.sadd(_key("hidden"), who)
            for key in [*(day_key(d) for d in days), _key("all"), *boards]:
                pipe.zrem(key, who)
            pipe.execute()
            _answered()
            return
        xp_by_day = dict(
            LearnerDayXP.objects.filter(user_id=user_id, day__gte=first_day).values_list(
                "day", "xp"
            )
        )
        total = LearnerStats.objects.filter(pk=user_id).values_list("xp_total", flat=True).first()
        existing = [
            (period, day) for period, day in around if client.exists(period_key(period, day))
        ]
        pipe = client.pipeline(transaction=True)
        pipe.srem(_key("hidden"), who)
        for day, xp in xp_by_day.items():
            pipe.zadd(day_key(day), {who: xp})
        if total:
            pipe.zadd(_key("all"), {who: total})
        for period, day in existing:
            xp = sum(xp_by_day.get(d, 0) for d in period_days(period, day))
            if xp:
                pipe.zadd(period_key(period, day), {who: xp})
        pipe.execute()
    except (redis.RedisError, BoardUnavailable) as error:
        if not isinstance(error, BoardUnavailable):
            _failed(error)
        logger.warning("Leaderboard visibility of learner %s not applied", user_id)
        _note_missed(1)
        return
    _answered()
