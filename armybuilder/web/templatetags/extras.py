"""Template helpers of the builder extras (issue 17): the print options form of a list."""
from django import template

from armybuilder.services.printing.forms import PrintOptionsForm
from armybuilder.services.printing.options import EXTRAS, saved_print_options

register = template.Library()


@register.simple_tag
def print_options_form(army_list, form=None):
    """The form as posted (with its errors), or the list's remembered options."""
    if isinstance(form, PrintOptionsForm):
        return form
    return PrintOptionsForm(initial=saved_print_options(army_list))


@register.simple_tag
def print_checks():
    return ["cards", *EXTRAS]


@register.filter
def field(form, name):
    return form[name]
