import factory

from accounts.tests.factories import UserFactory
from exercises.models import Exercise, ExerciseColumn, ModelReference, Submission
from lessons.tests.factories import LessonFactory

# The d_model lesson's columns, as the curriculum file defines them.
STANDARD_COLUMNS = [
    ("d_model", "d_model", ["hidden_size", "n_embd", "dim"]),
    ("n_layers", "n_layers", ["num_hidden_layers", "n_layer", "layers", "num_layers"]),
    ("n_heads", "n_heads", ["num_attention_heads", "n_head", "heads", "attention heads"]),
    ("vocab_size", "vocab_size", ["vocab", "vocabulary", "vocabulary size", "n_vocab"]),
    (
        "intermediate_size",
        "intermediate_size",
        ["n_inner", "ffn_dim", "d_ff", "ffn size", "hidden_dim", "mlp dim"],
    ),
]


class ExerciseFactory(factory.django.DjangoModelFactory):
    """A table exercise; `columns=False` makes one without its five standard columns."""

    class Meta:
        model = Exercise
        skip_postgeneration_save = True

    lesson = factory.SubFactory(LessonFactory)
    slug = factory.Sequence(lambda n: f"exercise-{n}")
    title = factory.Sequence(lambda n: f"Exercise {n}")
    prompt = "Tabulate d_model, n_layers, n_heads, vocab_size and intermediate_size."
    key_column = "model"
    key_synonyms = factory.LazyFunction(lambda: ["name", "model name", "model_id", "repo"])
    rows_required = 3
    pass_mark = 0.8
    xp = 60

    @factory.post_generation
    def columns(self, create, extracted, **kwargs):
        if not create or extracted is False:
            return
        for position, (name, field, synonyms) in enumerate(STANDARD_COLUMNS, start=1):
            ExerciseColumn.objects.create(
                exercise=self,
                position=position,
                name=name,
                reference_field=field,
                synonyms=synonyms,
            )


class ModelReferenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ModelReference
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Test-Model-{n}B")
    family = "Test"
    d_model = 4096
    n_layers = 32
    n_heads = 32
    n_kv_heads = 8
    vocab_size = 32000
    intermediate_size = 14336


class SubmissionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Submission

    exercise = factory.SubFactory(ExerciseFactory)
    user = factory.SubFactory(UserFactory)
    format = "csv"
    content = "model,d_model\nGPT-2,768\n"
