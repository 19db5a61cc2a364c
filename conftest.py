"""Project-wide pytest setup: test settings, API clients, isolation of cache and throttles."""

import os
import shutil
from pathlib import Path

import time_machine
import yaml

# Each test run gets its own cache key prefix (settings add the xdist worker's id), so
# throttles and caches never leak across, and no concurrent run on a shared Redis clears
# another's keys.
os.environ.setdefault("CACHE_KEY_PREFIX", f"test-{os.getpid()}")

import pytest
from hypothesis import settings as hypothesis_settings

# Property tests: a quick look on every `make test`, a thorough one in CI (which sets CI=true)
# or wherever HYPOTHESIS_PROFILE=thorough. No deadline: a loaded machine is not a bug.
hypothesis_settings.register_profile("quick", max_examples=20, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=300, deadline=None)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("thorough" if os.environ.get("CI") else "quick")
)


def pytest_collection_modifyitems(items):
    """Every transactional test leaves the migrated data (seeds) as it found them.

    Its flush empties the tables; `_seeds_restored_after` puts the seeds (levels,
    achievements, the editors group, the model catalogue) back when it ends, for whatever test
    the worker runs next (--dist worksteal mixes the orders). Django's serialized rollback is
    on for all of them, so that flush leaves the content types alone instead of re-creating
    them with new ids that the restore would then insert a second time.
    """
    for item in items:
        marker = item.get_closest_marker("django_db")
        transactional = "transactional_db" in getattr(item, "fixturenames", ()) or bool(
            marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0]))
        )
        if not transactional:
            continue
        # First in, so last out: it runs after the test's flush.
        item.fixturenames.insert(0, "_seeds_restored_after")
        if marker:  # pytest-django reads a marked test's rollback from its marker only
            kwargs = {**marker.kwargs, "serialized_rollback": True}
            item.add_marker(pytest.mark.django_db(*marker.args, **kwargs), append=False)
        elif "django_db_serialized_rollback" not in item.fixturenames:
            item.fixturenames.append("django_db_serialized_rollback")


@pytest.fixture
def _seeds_restored_after(django_db_blocker):
    """Put the seeds back when a transactional test has emptied the tables: under --dist
    worksteal an ordinary test may run next on this worker, and it needs them."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        connection.creation.deserialize_db_from_string(connection._test_serialized_contents)


@pytest.fixture(autouse=True)
def _isolated_cache(settings):
    from django.core.cache import cache

    _clear_cache(cache, settings)
    yield
    _clear_cache(cache, settings)


def _clear_cache(cache, settings) -> None:
    if settings.REDIS_URL:
        # cache.clear() would FLUSHDB, taking Celery's queues and other workers' keys with it.
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    else:
        cache.clear()


@pytest.fixture
def memory_broker():
    from learning_platform.tests.brokers import MemoryBroker

    broker = MemoryBroker()
    yield broker
    broker.flush()
    broker.up()


@pytest.fixture
def unreachable_broker():
    from learning_platform.tests.brokers import Broker

    broker = Broker()
    broker.down()
    yield broker
    broker.up()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def user(db):
    from accounts.tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def staff_user(db):
    from accounts.tests.factories import UserFactory

    return UserFactory(is_staff=True)


@pytest.fixture
def editor(client, db):
    """A member of "Content editors" (staff), signed in to the admin through `client`."""
    from django.contrib.auth.models import Group

    from accounts.tests.factories import UserFactory

    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name="Content editors"))
    client.force_login(user)
    return user


@pytest.fixture
def user_client(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def staff_client(staff_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(staff_user)
    return client


@pytest.fixture
def live_worker(transactional_db, settings):
    """A real `celery worker` process on the broker (Redis, or RabbitMQ when BROKER_URL is an
    amqp:// URL), sharing the test database.

    For integration tests marked `@pytest.mark.integration` with
    `@pytest.mark.django_db(transaction=True)`: tasks leave this process through the broker
    and run in the worker, exactly as in production. Skipped only when there is no broker
    (no REDIS_URL or BROKER_URL: the embedded default has none to run a worker on).
    """
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    from django.db import connection

    from learning_platform.celery import app as celery_app

    if not settings.BROKER_URL:
        pytest.skip("integration test: needs REDIS_URL or BROKER_URL (a broker) for a worker")
    db = connection.settings_dict
    if (
        db["ENGINE"].endswith("sqlite3") and db["NAME"] in ("", ":memory:")
    ) or "mode=memory" in str(db["NAME"]):
        pytest.skip("integration test: the worker cannot share an in-memory SQLite database")

    queue = f"test-{os.getpid()}-{time.monotonic_ns()}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        metrics_port = probe.getsockname()[1]
    env = {
        **os.environ,
        "TESTING": "0",
        "DEBUG": "1",
        "DATABASE_URL": _database_url(db),
        "REDIS_URL": settings.REDIS_URL,
        "BROKER_URL": settings.BROKER_URL,
        "CACHE_KEY_PREFIX": settings.CACHES["default"].get("KEY_PREFIX", "test"),
        "EMAIL_URL": "filemail:///" + str(_mail_dir(queue)),  # 4 slashes: an absolute path
        "CELERY_VISIBILITY_TIMEOUT": os.environ.get("TEST_VISIBILITY_TIMEOUT", "10"),
        # Within that short window (the worker refuses to start otherwise, checks.py).
        "CELERY_TASK_SOFT_TIME_LIMIT": "5",
        "CELERY_TASK_TIME_LIMIT": "6",
        "CELERY_RETRY_BACKOFF_MAX": "2",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        # The worker serves its metrics, as in production (learning_platform/observe_tasks.py).
        "WORKER_METRICS_PORT": str(metrics_port),
        "PROMETHEUS_MULTIPROC_DIR": str(_mail_dir(queue).parent / "metrics"),
    }
    command = [
        sys.executable, "-m", "celery", "-A", "learning_platform", "worker",
        "--pool=prefork", "--concurrency=1", "--loglevel=INFO", "-Q", queue,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        "-n", f"{queue}@%h",
    ]  # fmt: skip
    _mail_dir(queue).mkdir(parents=True, exist_ok=True)
    log_path = _mail_dir(queue).parent / "worker.log"
    log = open(log_path, "w")
    process = subprocess.Popen(
        command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    old_eager = celery_app.conf.task_always_eager
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        _wait_for_worker(celery_app, queue, process, log_path)
        worker = LiveWorker(
            process=process, queue=queue, log_path=log_path, mail_dir=_mail_dir(queue)
        )
        worker.env = env
        worker.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
        yield worker
    finally:
        celery_app.conf.task_always_eager = old_eager
        celery_app.conf.task_default_queue = old_queue
        process = worker.process if "worker" in locals() else process
        if process.poll() is None:
            # The test is over: nothing the worker holds is wanted, so no warm shutdown (1 s).
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        _delete_queues(settings.BROKER_URL, queue)


def _delete_queues(broker_url: str, *names: str) -> None:
    """Remove a test's queues from the broker; on RabbitMQ their exchanges too (each test
    queue has its own, named after it)."""
    from learning_platform.broker import is_rabbitmq
    from learning_platform.celery import app

    if not is_rabbitmq(broker_url):
        import redis

        redis.Redis.from_url(broker_url).delete(*names)
        return
    with app.connection_for_write(url=broker_url) as connection:
        channel = connection.channel()
        for name in names:
            channel.queue_delete(name)
            channel.exchange_delete(name)


class LiveWorker:
    def __init__(self, *, process, queue, log_path, mail_dir):
        self.process = process
        self.queue = queue
        self.log_path = log_path
        self.mail_dir = mail_dir

    def log(self) -> str:
        return self.log_path.read_text()

    def sent_mail(self) -> list[str]:
        """The e-mails the worker sent (Django's file e-mail backend writes one file per batch)."""
        if not self.mail_dir.exists():
            return []
        # A file still being written is left out: the backend ends each message with a line
        # of dashes, and a reader that raced the writer saw an empty e-mail.
        texts = [p.read_text() for p in sorted(self.mail_dir.iterdir())]
        return [text for text in texts if text.rstrip("\n").endswith("-" * 79)]

    env: dict

    def wait_for(self, condition, timeout: float = 30.0) -> None:
        """Return once `condition()` is true; fail with the worker's log after `timeout` s."""
        from learning_platform.tests.waiting import wait_until

        wait_until(condition, timeout=timeout, failure=lambda: f"worker log:\n{self.log()}")

    def waiting(self, queue: str) -> int:
        """How many messages wait in `queue` on the worker's broker."""
        from learning_platform.celery import app

        with app.connection_for_write(url=self.env["BROKER_URL"]) as connection:
            return connection.channel().queue_declare(queue, passive=True).message_count

    def delete_queues(self, *names: str) -> None:
        """Lose these queues and what waits in them (as a Redis FLUSHDB would)."""
        _delete_queues(self.env["BROKER_URL"], *names)

    def start_again(self):
        """Start a fresh worker process on the same queue (after killing this one)."""
        import subprocess

        self.process = subprocess.Popen(
            self.process.args,
            env=self.env,
            stdout=open(self.log_path, "a"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self.process


def _mail_dir(queue: str):
    import tempfile
    from pathlib import Path

    return Path(tempfile.gettempdir()) / "lp-test-workers" / queue / "mail"


def _database_url(db: dict) -> str:
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def _wait_for_worker(celery_app, queue: str, process, log_path, timeout: float = 40.0) -> None:
    import time

    from learning_platform.tests.waiting import wait_until

    node = f"{queue}@{_hostname()}"
    next_ping = time.monotonic() + 1.0

    def answers() -> bool:
        nonlocal next_ping
        if process.poll() is not None:
            raise RuntimeError(f"celery worker exited early:\n{log_path.read_text()}")
        # "<node> ready." in its log, confirmed by a ping; else a ping a second (each costs 0.5 s).
        if f"{node} ready." in log_path.read_text() or time.monotonic() >= next_ping:
            if celery_app.control.ping(destination=[node], timeout=0.5):
                return True
            next_ping = time.monotonic() + 1.0
        return False

    wait_until(answers, timeout=timeout, failure=lambda: f"celery worker:\n{log_path.read_text()}")


def _hostname() -> str:
    import socket

    return socket.gethostname()


@pytest.fixture
def client_for():
    """An API client signed in as the given user: `client_for(user).get(...)`."""
    from rest_framework.test import APIClient

    def make(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


@pytest.fixture(scope="session", autouse=True)
def _session_clock():
    """TEST_CLOCK=<ISO time> runs the whole suite as if started then, the clock ticking on:
    how to check that no test depends on the day or the hour it runs (e.g. just before
    midnight UTC, or on 29 February). Unset: the real clock."""
    start = os.environ.get("TEST_CLOCK")
    if not start:
        yield
        return
    with time_machine.travel(start, tick=True):
        yield


DEMO_CONTENT = Path(__file__).resolve().parent / "content"


@pytest.fixture
def demo_slice(tmp_path) -> Path:
    """The demo quest cut to the reference lesson and its neighbours, as files the loader
    reads: what the whole curriculum would show for one lesson, in a tenth of the time."""
    slugs = ["token-embeddings", "embedding-dimension", "embedding-geometry"]
    source = DEMO_CONTENT / "transformers"
    target = tmp_path / "content" / "transformers"
    (target / "lessons").mkdir(parents=True)
    quest = yaml.safe_load((source / "quest.yaml").read_text())
    quest["lessons"] = slugs
    (target / "quest.yaml").write_text(yaml.safe_dump(quest, sort_keys=False))
    for slug in slugs:
        shutil.copy(source / "lessons" / f"{slug}.yaml", target / "lessons")
    return tmp_path / "content"


class Scraped(dict):
    """Samples of one scrape of /metrics: {(name, sorted label pairs): value}."""

    def value(self, name: str, **labels) -> float:
        """The sample's value, 0 when absent (a series not yet written)."""
        return self.get((name, tuple(sorted(labels.items()))), 0.0)

    def families(self) -> set[str]:
        return {name for name, _ in self} | self.declared


@pytest.fixture
def scrape(client, settings):
    """Read /metrics through the HTTP client, as Prometheus does (with the bearer token)."""
    from prometheus_client.parser import text_string_to_metric_families

    settings.METRICS_TOKEN = "scrape-token"  # noqa: S105

    def read() -> Scraped:
        response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-token")
        assert response.status_code == 200
        scraped = Scraped()
        scraped.declared = set()
        for family in text_string_to_metric_families(response.content.decode()):
            scraped.declared.add(family.name)
            for sample in family.samples:
                scraped[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        return scraped

    return read


@pytest.fixture
def database_clock(settings):
    """Times from the database's clock (learning_platform/clock.py), measured afresh: off by
    default under tests, which move the node's clock with time-machine.

    The database's clock is this machine's real one and no test can move it, so under
    TEST_CLOCK the node's clock goes back to the real time for these tests: a node weeks
    ahead of its database is what they simulate one by one, not the suite's starting point."""
    from datetime import UTC

    from learning_platform import clock

    settings.CLOCK_FROM_DATABASE = True
    clock.forget()
    if time_machine.escape_hatch.is_travelling():
        real = time_machine.escape_hatch.datetime.datetime.now(UTC)
        with time_machine.travel(real, tick=True):
            yield
    else:
        yield
    clock.forget()
