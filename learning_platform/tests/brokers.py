"""The Celery broker as tests need it: down, or in memory where what it holds can be read."""


class Broker:
    """Switch the real Celery app between publishing to a port where nothing listens (the
    broker down: Redis, or RabbitMQ when the broker is one) and the test default (tasks run
    in-process, or the live worker's broker)."""

    def __init__(self):
        from learning_platform.celery import app

        self.app = app
        self.saved = (app.conf.task_always_eager, app.conf.broker_url)

    def down(self) -> None:
        from learning_platform.broker import is_rabbitmq

        self.app.conf.task_always_eager = False
        # Nothing listens on port 1.
        rabbitmq = is_rabbitmq(self.saved[1])
        self.app.conf.broker_url = (
            "amqp://guest:guest@127.0.0.1:1//" if rabbitmq else "redis://127.0.0.1:1/0"
        )
        self._forget_connections()

    def up(self) -> None:
        self.app.conf.task_always_eager, self.app.conf.broker_url = self.saved
        self._forget_connections()

    def _forget_connections(self) -> None:
        from learning_platform import outbox

        outbox.BREAKER.reset()
        # The app caches its connection and producer pools; the next publish opens new ones
        # for the current URL.
        self.app._pool = None
        self.app.amqp._producer_pool = None


class MemoryBroker(Broker):
    """Publish for real, to kombu's in-process `memory://` transport, with no worker: what the
    broker holds can be read (`queued`), lost (`flush`, as Redis FLUSHDB does) or run
    (`run_queued`, as a worker would, signals included)."""

    def __init__(self):
        super().__init__()
        self.app.conf.task_always_eager = False
        self.app.conf.broker_url = "memory://"
        self._forget_connections()
        self.flush()

    def _queue(self, connection):
        # The queue as the app declares it (its exchange's type is the broker's: topic for
        # RabbitMQ), so reading it does not redeclare the exchange differently.
        return connection.SimpleQueue(self.app.amqp.queues[self.app.conf.task_default_queue])

    def flush(self) -> None:
        with self.app.connection_for_read() as connection:
            self._queue(connection).clear()

    def queued(self) -> list:
        """The messages waiting, taken out of the broker: [(task name, args, kwargs, headers)]."""
        taken = []
        with self.app.connection_for_read() as connection:
            queue = self._queue(connection)
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    return taken
                message.ack()
                args, kwargs, _ = message.decode()
                taken.append((message.headers["task"], args, kwargs, message.headers))

    def run_queued(self, *, last_try: bool = False) -> list[str]:
        """Run every waiting task as a worker would; the names of the tasks run. `last_try`:
        as its final automatic retry (a failure is then the task's failure)."""
        ran = []
        for name, args, kwargs, headers in self.queued():
            task = self.app.tasks[name]
            custom = {
                k: v for k, v in headers.items() if k in ("outbox_id", "request_id", "published_at")
            }
            retries = (task.max_retries or 0) if last_try else 0
            task.apply(args, kwargs, headers=custom, retries=retries, throw=False)
            ran.append(name)
        return ran
