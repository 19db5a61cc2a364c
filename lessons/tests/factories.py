import factory

from lessons.blocks import block_html
from lessons.models import Block, Lesson, Link, Quest, Tag


class QuestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Quest
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"quest-{n}")
    title = factory.Sequence(lambda n: f"Quest {n}")
    description = "A quest."


class TagFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tag
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"tag-{n}")


class LessonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Lesson
        skip_postgeneration_save = True

    quest = factory.SubFactory(QuestFactory)
    slug = factory.Sequence(lambda n: f"lesson-{n}")
    title = factory.Sequence(lambda n: f"Lesson {n}")
    summary = "What this lesson covers."
    estimated_minutes = 10
    xp = 20
    position = factory.Sequence(lambda n: n)
    published = True

    @factory.post_generation
    def tags(self, create, extracted, **kwargs):
        if create and extracted:
            self.tags.set([TagFactory(slug=t) if isinstance(t, str) else t for t in extracted])


class ProseBlockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Block

    lesson = factory.SubFactory(LessonFactory)
    kind = Block.Kind.PROSE
    position = factory.Sequence(lambda n: n)
    markdown = "Some **prose**."
    # As the services and the admin store it.
    html = factory.LazyAttribute(lambda block: block_html(block.kind, block.markdown))


class TableBlockFactory(ProseBlockFactory):
    kind = Block.Kind.TABLE
    markdown = ""
    caption = "Widths"
    columns = factory.LazyFunction(lambda: ["Model", "d_model"])
    rows = factory.LazyFunction(lambda: [["GPT-2", "768"]])


class CodeBlockFactory(ProseBlockFactory):
    kind = Block.Kind.CODE
    markdown = ""
    title = "Example"
    language = "python"
    source = "print('hi')\n"


NUMERIC_CHECK = {
    "key": "head-dimension",
    "type": "numeric",
    "explanation": "768 / 12 = 64.",
    "answer": 64,
    "unit": "dimensions",
    "mistakes": [
        {"value": 3072, "feedback": "3,072 is 4 x d_model, the FFN size, not the head size."}
    ],
}
CHOICE_CHECK = {
    "key": "what-grows",
    "type": "choice",
    "explanation": "Parameters grow with the square of d_model.",
    "options": [
        {"text": "Quadratically", "correct": True, "explanation": "d x d matrices."},
        {"text": "Linearly", "explanation": "Each matrix is d_model by d_model, not a vector."},
        {"text": "Not at all", "explanation": "Every block's matrices grow with it."},
    ],
}
ORDERING_CHECK = {
    "key": "token-path",
    "type": "ordering",
    "explanation": "Embed, transform, unembed.",
    "items": ["Token ids", "Embeddings", "Blocks", "Logits"],
}


class CheckBlockFactory(ProseBlockFactory):
    """A check (numeric by default; pass `spec=CHOICE_CHECK` or `ORDERING_CHECK`)."""

    kind = Block.Kind.CHECK
    markdown = "How many dimensions does each head of GPT-2 small have?"
    spec = factory.LazyFunction(lambda: dict(NUMERIC_CHECK))


class LinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Link

    lesson = factory.SubFactory(LessonFactory)
    position = factory.Sequence(lambda n: n)
    title = "Attention Is All You Need"
    url = "https://arxiv.org/abs/1706.03762"


def d_model_lesson(quest):
    """The "Embedding dimension (d_model)" lesson of the API tests: prose with a script tag, a
    table, a titled code block and a link, second in its quest."""
    lesson = LessonFactory(
        quest=quest,
        slug="embedding-dimension",
        title="Embedding dimension (d_model)",
        estimated_minutes=10,
        tags=["d-model", "scaling", "capacity"],
        position=2,
    )
    ProseBlockFactory(lesson=lesson, position=1, markdown="The **width**.\n\n<script>x()</script>")
    TableBlockFactory(lesson=lesson, position=2, rows=[["GPT-2", "768"], ["GPT-3", "12,288"]])
    CodeBlockFactory(lesson=lesson, position=3, title="Estimating parameter count")
    LinkFactory(lesson=lesson, title="GPT-3", url="https://arxiv.org/abs/2005.14165")
    return lesson
