"""Settings for bench/bench_grading.py's "reused connections" run only: the project's, plus
Celery keeping each worker's database connection across tasks.

Celery's Django fix-up closes the database connection before and after every task unless
CELERY_DB_REUSE_MAX is set, so by default each grade opens a new PostgreSQL connection.
With it set, the bench module (imported by the worker) calls Django's close_old_connections()
around each task instead, which honours CONN_MAX_AGE and drops a connection that errored.
"""

from learning_platform.settings import *  # noqa: F403

CELERY_DB_REUSE_MAX = 1_000_000
