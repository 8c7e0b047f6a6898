"""Use cases that span the list model, interchange and printing: importing a roster or any list file, the list
exports, the starter list, the BattleScribe library import, printing, tournaments (events) and housekeeping.
Web pages, the API, the PDF pages and the management commands call these; nothing below imports them
(docs/architecture.md)."""
