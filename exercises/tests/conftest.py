import pytest

from exercises.tests.factories import ExerciseFactory


@pytest.fixture(autouse=True)
def _fresh_catalogue():
    """Each test reads the catalogue of its own database, not one cached by an earlier test."""
    from exercises.services import forget_catalogue

    forget_catalogue()
    yield
    forget_catalogue()


@pytest.fixture
def catalogue(db):
    """The shipped reference catalogue (the seed migration's rows; transactional tests flush it)."""
    from exercises.services import load_reference_catalogue

    load_reference_catalogue()


@pytest.fixture
def exercise(catalogue):
    return ExerciseFactory()


GOOD_CSV = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,12,12,50257,3072\n"
    'Llama 3 8B,"4,096",32,32,128256,14336\n'
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)
# Known models, four figures wrong: 11 of 15 cells right, below the 0.8 pass mark.
FAILING_CSV = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,24,16,50257,3072\n"
    "Llama 3 8B,4096,32,32,1,1\n"
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)


class Broker:
    """Switch the real Celery app between publishing to a Redis port where nothing listens
    (Redis down) and the test default (tasks run in-process)."""

    def __init__(self):
        from learning_platform.celery import app

        self.app = app
        self.saved = (app.conf.task_always_eager, app.conf.broker_url)

    def down(self) -> None:
        self.app.conf.task_always_eager = False
        self.app.conf.broker_url = "redis://127.0.0.1:1/0"
        self._forget_connections()

    def up(self) -> None:
        self.app.conf.task_always_eager, self.app.conf.broker_url = self.saved
        self._forget_connections()

    def _forget_connections(self) -> None:
        # The app caches its connection and producer pools; the next publish opens new ones
        # for the current URL.
        self.app._pool = None
        self.app.amqp._producer_pool = None


@pytest.fixture
def unreachable_broker():
    broker = Broker()
    broker.down()
    yield broker
    broker.up()
