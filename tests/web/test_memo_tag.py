"""{% memo %}: a block drawn once per distinct value of its keys in one render, repeated as it came out."""
import pytest
from django.template import Context, Engine, TemplateSyntaxError

ENGINE = Engine(libraries={"builder_tags": "armybuilder.web.templatetags.builder_tags"})


class Counted:
    """A value whose repr says what it is, counting how often the template reads its name."""

    def __init__(self, label):
        self.label, self.reads = label, 0

    @property
    def name(self):
        self.reads += 1
        return self.label

    def __repr__(self):
        return f"Counted({self.label!r})"


def render(text: str, **context) -> str:
    return ENGINE.from_string("{% load builder_tags %}" + text).render(Context(context))


def test_the_block_is_drawn_once_per_distinct_key_and_repeated():
    a, b, a_again = Counted("a"), Counted("b"), Counted("a")
    out = render("{% for x in items %}{% memo x %}<{{ x.name }}>{% endmemo %}{% endfor %}", items=[a, b, a_again, b])
    assert out == "<a><b><a><b>"
    assert (a.reads, b.reads, a_again.reads) == (1, 1, 0)  # the second "a" is the first one's text


def test_every_key_counts():
    out = render("{% for x, y in pairs %}{% memo x y %}{{ x }}{{ y }};{% endmemo %}{% endfor %}",
                 pairs=[("a", 1), ("a", 2), ("a", 1), ("b", 1)])
    assert out == "a1;a2;a1;b1;"


def test_each_memo_block_and_each_render_is_its_own():
    text = "{% memo k %}[{{ v }}]{% endmemo %}{% memo k %}({{ v }}){% endmemo %}"
    assert render(text, k="same", v=1) == "[1](1)"
    assert render(text, k="same", v=2) == "[2](2)"  # a new render draws again


def test_the_output_stays_escaped_as_drawn():
    out = render("{% for x in items %}{% memo x %}{{ x }}{% endmemo %}{% endfor %}", items=["<b>", "<b>"])
    assert out == "&lt;b&gt;&lt;b&gt;"


def test_memo_needs_a_key():
    with pytest.raises(TemplateSyntaxError):
        render("{% memo %}x{% endmemo %}")
