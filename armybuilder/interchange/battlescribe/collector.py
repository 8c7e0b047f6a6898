"""Pause Python's cyclic garbage collector while a library is read, mapped and loaded.

An import builds hundreds of thousands of long-lived objects (XML elements, nodes, handbook documents)
and almost no cyclic garbage. With the collector running, each of its full passes walks everything built
so far, and those passes took more than half of an import of the BSData library. Reference counting still
frees what goes out of use while it is paused; what cycles there are are collected when it resumes.
The reads are bounded (:class:`.safe_read.ReadLimits`), so so is what is kept meanwhile.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """Run the body with the cyclic garbage collector off; it is turned back on (if it was on) after."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
