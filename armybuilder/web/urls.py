from django.urls import path

from . import accounts, battlescribe_views, extras_views, matchup_views, schemas, views

app_name = "web"
urlpatterns = [
    path("", views.start, name="start"),
    path("import/", views.import_list, name="import"),
    path("import/battlescribe/", battlescribe_views.import_battlescribe, name="import-battlescribe"),
    path("lists/<uuid:public_id>/", views.builder, name="builder"),
    path("lists/<uuid:public_id>/do/<slug:action>/", views.builder_action, name="action"),
    path("lists/<uuid:public_id>/rename/", views.list_rename, name="rename"),
    path("lists/<uuid:public_id>/copy/", views.list_copy, name="copy"),
    path("lists/<uuid:public_id>/delete/", views.list_delete, name="delete"),
    path("lists/<uuid:public_id>/export.json", views.list_export, name="export"),
    path("lists/<uuid:public_id>/text/", extras_views.list_text, name="text"),
    path("lists/<uuid:public_id>/chart/", extras_views.list_chart, name="chart"),
    path("lists/<uuid:public_id>/print-options/", extras_views.list_print_options, name="print-options"),
    path("lists/<uuid:public_id>/starter/", extras_views.list_starter, name="starter"),
    path("s/<uuid:share_token>/", views.shared, name="shared"),
    path("s/<uuid:share_token>/text/", extras_views.shared_text, name="shared-text"),
    path("s/<uuid:share_token>/chart/", extras_views.shared_chart, name="shared-chart"),
    path("s/<uuid:share_token>/export.json", views.shared_export, name="shared-export"),
    path("schemas/<str:name>", schemas.schema, name="schema"),
    path("matchups/", matchup_views.matchups, name="matchups"),
    path("matchups/<uuid:public_id>/", matchup_views.matchup, name="matchup"),
    path("matchups/<uuid:public_id>/parity/", matchup_views.matchup_answers, name="matchup-answers"),
    path("matchups/<uuid:public_id>/delete/", matchup_views.matchup_delete, name="matchup-delete"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/delete/", accounts.account_delete, name="account-delete"),
    path("accounts/password-reset/", accounts.PasswordResetView.as_view(), name="password-reset"),
    path("accounts/password-reset/sent/", accounts.PasswordResetDoneView.as_view(), name="password-reset-done"),
    path("accounts/reset/<uidb64>/<token>/", accounts.PasswordResetConfirmView.as_view(),
         name="password-reset-confirm"),
    path("accounts/reset/done/", accounts.PasswordResetCompleteView.as_view(), name="password-reset-complete"),
]
