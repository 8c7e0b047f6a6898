"""Sign up, log in, log out. Signing up or logging in claims the visitor's session lists."""
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from .forms import SignUpForm
from .services import army_lists_claim_for_user, matchups_claim_for_user


def _next_url(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return reverse("web:start")


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        visitor_session = request.session.session_key  # login() gives the session a new key
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        army_lists_claim_for_user(user=user, session_key=visitor_session)
        matchups_claim_for_user(user=user, session_key=visitor_session)
        return redirect(_next_url(request))
    return render(request, "web/accounts/signup.html", {"form": form, "next": _next_url(request)},
                  status=400 if form.errors else 200)


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


class LogoutView(auth_views.LogoutView):
    next_page = "web:start"
