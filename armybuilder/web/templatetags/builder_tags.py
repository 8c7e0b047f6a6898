from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag
def optional_url(name, *args):
    """The URL if that URL name exists in this installation, else an empty string (a slot another app fills)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@register.filter
def plural(count, word="pt"):
    """3|plural:"pt" -> "3 pts"; 1 -> "1 pt"."""
    try:
        n = int(count)
    except (TypeError, ValueError):
        return f"{count} {word}"
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


class MemoNode(template.Node):
    """See :func:`memo`."""

    def __init__(self, nodelist, keys):
        self.nodelist, self.keys = nodelist, keys

    def render(self, context):
        values = tuple(k.resolve(context) for k in self.keys)
        key = (id(self), values if all(isinstance(v, (str, bool, int)) for v in values) else repr(values))
        memo = getattr(context, "_memo", None)
        if memo is None:
            memo = context._memo = {}
        text = memo.get(key)
        if text is None:
            text = memo[key] = self.nodelist.render(context)
        return text


@register.tag
def memo(parser, token):
    """``{% memo a b %}…{% endmemo %}``: the block rendered once per distinct ``repr((a, b))`` (the values
    themselves when they are strings, numbers or booleans) in one render
    (one page or answer) and repeated as it came out the first time. The block must draw nothing but what its
    keys say (their repr must tell apart whatever it shows): a real book's boxes often offer the same choices,
    whose buttons are drawn once."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% memo %} needs at least one value the block depends on")
    keys = [parser.compile_filter(bit) for bit in bits[1:]]
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, keys)
