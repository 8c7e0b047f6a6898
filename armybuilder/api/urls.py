"""/api/v1/... (the API) and /api/schema/, /api/docs/ (its OpenAPI schema and Swagger UI)."""
from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from . import books, check, event_pack, events, files, history, jobs, lists, matchups, text, tokens
from .views import not_found

app_name = "api"

BOOK = "v1/handbooks/<str:system>/<str:code>/<int:revision>/"
LIST = "v1/lists/<uuid:public_id>/"
UNIT = "units/<int:unit>/"
EVENT = "v1/events/<uuid:event_id>/"
SUBMISSION = "v1/events/submissions/<uuid:submission_id>/"
MATCHUP = "v1/matchups/<uuid:matchup_id>/"

urlpatterns = [
    # game data
    path("v1/systems/", books.SystemListApi.as_view(), name="system-list"),
    path("v1/systems/<str:system>/", books.SystemDetailApi.as_view(), name="system-detail"),
    path("v1/handbooks/", books.HandbookListApi.as_view(), name="handbook-list"),
    path("v1/handbooks/<str:system>/<str:code>/", books.HandbookRevisionsApi.as_view(), name="handbook-revisions"),
    path(BOOK, books.HandbookDetailApi.as_view(), name="handbook-detail"),
    path(BOOK + "formations/", books.FormationListApi.as_view(), name="formation-list"),
    path(BOOK + "formations/<str:formation>/", books.FormationDetailApi.as_view(), name="formation-detail"),
    path(BOOK + "units/", books.UnitListApi.as_view(), name="unit-list"),
    path(BOOK + "units/<str:unit>/", books.UnitDetailApi.as_view(), name="unit-detail"),
    path(BOOK + "cards/", books.CardListApi.as_view(), name="card-list"),
    # lists
    path("v1/lists/", lists.ListCollectionApi.as_view(), name="list-collection"),
    path("v1/lists/import", lists.ListImportApi.as_view(), name="list-import"),
    path("v1/lists/import.ros", files.ListRosImportApi.as_view(), name="list-import-ros"),
    path(LIST, lists.ListDetailApi.as_view(), name="list-detail"),
    path(LIST + "copy", lists.ListCopyApi.as_view(), name="list-copy"),
    path(LIST + "share-link", lists.ListShareLinkApi.as_view(), name="list-share-link"),
    path(LIST + "export.json", lists.ListExportApi.as_view(), name="list-export-json"),
    path(LIST + "export.ros", files.ListRosApi.as_view(), name="list-export-ros"),
    path(LIST + "export.rosz", files.ListRoszApi.as_view(), name="list-export-rosz"),
    path(LIST + "export.txt", text.ListTextApi.as_view(), name="list-export-text"),
    path(LIST + "roster.pdf", files.ListPdfApi.as_view(), name="list-roster-pdf"),
    path(LIST + "roster-jobs", jobs.ListRosterJobApi.as_view(), name="list-roster-job"),
    # the builder's operations, at the list document's pointers
    path(LIST + "formations/", lists.FormationAddApi.as_view(), name="formation-add"),
    path(LIST + "formations/<int:formation>/", lists.FormationRemoveApi.as_view(), name="formation-remove"),
    path(LIST + "formations/<int:formation>/units/", lists.UnitPickApi.as_view(), name="unit-pick"),
    path(LIST + "formations/<int:formation>/" + UNIT, lists.UnitRemoveApi.as_view(), name="unit-remove"),
    path(LIST + "formations/<int:formation>/" + UNIT + "size", lists.UnitSizeApi.as_view(), name="unit-size"),
    path(LIST + "formations/<int:formation>/" + UNIT + "upgrades", lists.UnitUpgradeApi.as_view(),
         name="unit-upgrade"),
    path(LIST + "support/", lists.UnitPickApi.as_view(), name="support-pick"),
    path(LIST + "support/<int:unit>/", lists.UnitRemoveApi.as_view(), name="support-remove"),
    path(LIST + "support/<int:unit>/size", lists.UnitSizeApi.as_view(), name="support-size"),
    path(LIST + "support/<int:unit>/upgrades", lists.UnitUpgradeApi.as_view(), name="support-upgrade"),
    path(LIST + "selections", lists.SelectionApi.as_view(), name="selection-set"),
    path(LIST + "cards/", lists.CardAddApi.as_view(), name="card-add"),
    path(LIST + "cards/<int:card>/", lists.CardRemoveApi.as_view(), name="card-remove"),
    path(LIST + "formations/<int:formation>/name-notes", history.NameNotesApi.as_view(), name="formation-name-notes"),
    path(LIST + "formations/<int:formation>/" + UNIT + "name-notes", history.NameNotesApi.as_view(),
         name="unit-name-notes"),
    path(LIST + "support/<int:unit>/name-notes", history.NameNotesApi.as_view(), name="support-name-notes"),
    # history, undo and redo, book updates
    path(LIST + "history", history.ListHistoryApi.as_view(), name="list-history"),
    path(LIST + "history/<int:version>", history.ListHistoryEntryApi.as_view(), name="list-history-entry"),
    path(LIST + "history/<int:version>/restore", history.ListRestoreApi.as_view(), name="list-restore"),
    path(LIST + "undo", history.ListUndoApi.as_view(), name="list-undo"),
    path(LIST + "redo", history.ListRedoApi.as_view(), name="list-redo"),
    path(LIST + "book-update", history.ListBookUpdateApi.as_view(), name="list-book-update"),
    # shared lists, read-only for anyone with the link
    path("v1/shared/<uuid:share_token>/", lists.SharedDetailApi.as_view(), name="shared-detail"),
    path("v1/shared/<uuid:share_token>/export.json", lists.SharedExportApi.as_view(), name="shared-export-json"),
    path("v1/shared/<uuid:share_token>/copy", lists.SharedCopyApi.as_view(), name="shared-copy"),
    path("v1/shared/<uuid:share_token>/roster.pdf", files.SharedPdfApi.as_view(), name="shared-roster-pdf"),
    # match-ups of two lists, and every match-up tool (armybuilder/lists/matchups/tools.py names them by slug)
    path("v1/matchups/", matchups.MatchupCollectionApi.as_view(), name="matchup-collection"),
    path(MATCHUP, matchups.MatchupDetailApi.as_view(), name="matchup-detail"),
    path(MATCHUP + "fow-comparison", matchups.FowComparisonApi.as_view(), name="matchup-fow-comparison"),
    path(MATCHUP + "activation-dice", matchups.ActivationDiceApi.as_view(), name="matchup-activation-dice"),
    path(MATCHUP + "setup", matchups.SetupApi.as_view(), name="matchup-setup"),
    path(MATCHUP + "order-cards", matchups.OrderCardsApi.as_view(), name="matchup-order-cards"),
    path(MATCHUP + "parity", matchups.ParityStateApi.as_view(), name="matchup-parity"),
    path(MATCHUP + "parity/ranking", matchups.ParityRankingApi.as_view(), name="matchup-parity-ranking"),
    path(MATCHUP + "parity/judgements", matchups.ParityJudgementsApi.as_view(), name="matchup-parity-judgements"),
    path(MATCHUP + "parity/spending", matchups.ParitySpendingApi.as_view(), name="matchup-parity-spending"),
    # background jobs
    path("v1/jobs/<uuid:job_id>", jobs.JobDetailApi.as_view(), name="job-detail"),
    path("v1/jobs/<uuid:job_id>/result", jobs.JobResultApi.as_view(), name="job-result"),
    path("v1/imports/battlescribe", jobs.BattleScribeImportApi.as_view(), name="import-battlescribe"),
    # tournaments
    path("v1/events/", events.EventCollectionApi.as_view(), name="event-collection"),
    path(EVENT, events.EventDetailApi.as_view(), name="event-detail"),
    path(EVENT + "organisers", events.EventOrganiserApi.as_view(), name="event-organisers"),
    path(EVENT + "registrations", events.RegistrationApi.as_view(), name="event-registrations"),
    path(EVENT + "registrations/<int:registration_id>/reopen", events.ReopenApi.as_view(), name="event-reopen"),
    path(EVENT + "submissions", events.SubmissionCollectionApi.as_view(), name="event-submissions"),
    path(EVENT + "lock", events.LockApi.as_view(), name="event-lock"),
    path(EVENT + "recheck", events.RecheckApi.as_view(), name="event-recheck"),
    # the printed pack (the organisers' only)
    path(EVENT + "pack", event_pack.EventPackApi.as_view(), name="event-pack"),
    path(EVENT + "pack.pdf", event_pack.EventPackPdfApi.as_view(), name="event-pack-pdf"),
    path(EVENT + "pack.csv", event_pack.EventPackCsvApi.as_view(), name="event-pack-csv"),
    path(EVENT + "pack.zip", event_pack.EventPackZipApi.as_view(), name="event-pack-zip"),
    path(SUBMISSION, events.SubmissionDetailApi.as_view(), name="submission-detail"),
    path(SUBMISSION + "review", events.SubmissionReviewApi.as_view(), name="submission-review"),
    path(SUBMISSION + "export.json", events.SubmissionJsonApi.as_view(), name="submission-export-json"),
    path(SUBMISSION + "export.ros", events.SubmissionRosApi.as_view(), name="submission-export-ros"),
    path(SUBMISSION + "roster.pdf", events.SubmissionPdfApi.as_view(), name="submission-roster-pdf"),
    # checking without saving, and tokens
    path("v1/check", check.CheckApi.as_view(), name="check"),
    path("v1/auth/token", tokens.TokenApi.as_view(), name="token"),
    # schema and docs
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Self-hosted (drf-spectacular-sidecar); the split view serves its set-up script as a file, so no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # Redoc writes its styles into <style> elements and parses in a blob: worker: allowed on this page only.
    path("redoc/", csp_update({"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]})(
        SpectacularRedocView.as_view(url_name="api:schema")), name="redoc"),
    # anything else under /api/ is a JSON 404, not an HTML page
    re_path(r"^[\s\S]*$", not_found, name="not-found"),  # [\s\S]: also paths with a newline in them
]
