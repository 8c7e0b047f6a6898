"""The printed pack of an event: one PDF (cover, contents, every approved roster with its unit cards), a CSV
for pairing tools and a ZIP of every list as JSON and BattleScribe ``.ros``.

- ``build``: plain functions from pack entries (frozen submissions) to files; no ORM, no queue.
- ``services``: which submissions go in, the keys (a pack is kept until a submission changes, a roster is
  cached by submission and version), starting the build, reading the finished files.
- ``tasks``: the Celery task that renders one roster, so several workers share a pack's rosters.
The job kind ``event_pack`` (``armybuilder/services/events/jobkinds.py``) gathers the rosters and combines them.
"""
