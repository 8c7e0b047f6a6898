"""Sign up, log in (throttled), log out, password reset by e-mail, the account page, deleting the account.

Signing up or logging in claims the visitor's session lists. Log-in attempts are counted by
django-axes: after too many wrong passwords the page says the account is locked for a while.
Password reset uses Django's own views with this site's templates.
"""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from armybuilder.lists.matchups import matchups_claim_for_user
from armybuilder.ratelimit import client_ident, rate_limit_hit

from .forms import DeleteAccountForm, DisplayNameForm, SignUpForm
from .services import (
    UsernameTaken,
    army_lists_claim_for_user,
    player_display_name,
    player_set_display_name,
    user_delete_account,
    user_sign_up,
)


def _next_url(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return reverse("web:start")


def _minutes(delta) -> int:
    return max(1, int(delta.total_seconds() // 60))


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        limited = rate_limit_hit(scope="signup", ident=client_ident(request))
        if limited:
            form = SignUpForm()
            form.add_error(None, f"Too many accounts were made from your address; try again in "
                                 f"{_minutes_from_seconds(limited.retry_after)} minute(s).")
            response = render(request, "web/accounts/signup.html", {"form": form, "next": _next_url(request)},
                              status=429)
            response["Retry-After"] = str(limited.retry_after)
            return response
    if request.method == "POST" and form.is_valid():
        visitor_session = request.session.session_key  # login() gives the session a new key
        try:
            user = user_sign_up(form=form)
        except UsernameTaken:
            form.add_error("username", "A user with that username already exists.")
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            army_lists_claim_for_user(user=user, session_key=visitor_session)
            matchups_claim_for_user(user=user, session_key=visitor_session)
            return redirect(_next_url(request))
    return render(request, "web/accounts/signup.html", {"form": form, "next": _next_url(request)},
                  status=400 if form.errors else 200)


def _minutes_from_seconds(seconds: int) -> int:
    return max(1, (seconds + 59) // 60)


class LoginView(auth_views.LoginView):
    template_name = "web/accounts/login.html"

    def form_valid(self, form):
        visitor_session = self.request.session.session_key
        response = super().form_valid(form)
        army_lists_claim_for_user(user=form.get_user(), session_key=visitor_session)
        matchups_claim_for_user(user=form.get_user(), session_key=visitor_session)
        return response

    def get_default_redirect_url(self):
        return reverse("web:start")


LOCKED_OUT = ("Too many wrong passwords for this username from your address: logging in is locked for "
              "{minutes} minutes. Wait, or reset your password by e-mail.")


def axes_username(request, credentials=None) -> str | None:
    """The username django-axes counts attempts under: what was typed, cut to the longest possible username.
    (Django's log-in form lets any length through to authenticate(), and axes stored it whole: a 5,000-character
    name was a 500 on PostgreSQL.)"""
    source = credentials if credentials else getattr(request, "POST", {})
    value = source.get(get_user_model().USERNAME_FIELD) if source else None
    if value is None:
        return None
    limit = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD).max_length or 150
    return str(value).replace("\x00", "")[:limit]


def locked_out(request, response=None, credentials=None):
    """django-axes' answer once a username and address are locked out: the log-in page, saying so (429)."""
    form = AuthenticationForm(request, data=None)
    message = LOCKED_OUT.format(minutes=_minutes(settings.AXES_COOLOFF_TIME))
    return render(request, "web/accounts/login.html",
                  {"form": form, "next": _next_url(request), "locked_out": message}, status=429)


class LogoutView(auth_views.LogoutView):
    next_page = "web:start"

    def post(self, request, *args, **kwargs):
        request.POST  # noqa: B018 - a body that cannot be read is refused (400) before the log-out happens
        return super().post(request, *args, **kwargs)


# -- password reset (Django's views, this site's templates) ----------------------------------------------------

class PasswordResetView(auth_views.PasswordResetView):
    template_name = "web/accounts/password_reset.html"
    email_template_name = "web/accounts/password_reset_email.txt"
    subject_template_name = "web/accounts/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "web/accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "web/accounts/password_reset_confirm.html"
    success_url = reverse_lazy("web:password-reset-complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "web/accounts/password_reset_complete.html"


# -- the account page ----------------------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def account(request):
    name_form = DisplayNameForm(request.POST if request.POST.get("form") == "display_name" else None,
                                initial={"display_name": player_display_name(request.user)})
    if name_form.is_bound and name_form.is_valid():
        player_set_display_name(user=request.user, display_name=name_form.cleaned_data["display_name"])
        messages.success(request, "Display name saved.")
        return redirect("web:account")
    return render(request, "web/accounts/account.html",
                  {"name_form": name_form, "delete_form": DeleteAccountForm(user=request.user),
                   "list_count": request.user.army_lists.count()},
                  status=400 if name_form.errors else 200)


@login_required
@require_http_methods(["POST"])
def account_delete(request):
    form = DeleteAccountForm(request.POST, user=request.user)
    if not form.is_valid():
        return render(request, "web/accounts/account.html",
                      {"name_form": DisplayNameForm(initial={"display_name": player_display_name(request.user)}),
                       "delete_form": form, "list_count": request.user.army_lists.count()}, status=400)
    user = request.user
    logout(request)
    count = user_delete_account(user=user)
    messages.success(request, f"Your account and its {count} list(s) were deleted.")
    return redirect("web:start")
