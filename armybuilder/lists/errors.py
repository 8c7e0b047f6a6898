"""The error every list operation raises when it makes no sense for the list (in a module of its own so that
``pointers`` and ``services`` share it without importing each other)."""


class ListOperationError(Exception):
    """The operation makes no sense for this list (wrong book, unknown code …)."""
