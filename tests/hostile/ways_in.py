"""Every way into the application, found by walking it, not listed by hand: the URLconf (web pages and the
API), the OpenAPI schema (to check the walk missed no operation) and the management commands of our apps."""
import re
from dataclasses import dataclass

from django.core.management import get_commands, load_command_class
from django.urls import URLPattern, URLResolver, get_resolver

from .world import ALSO, NOT_OURS

OUR_APPS = ("handbooks", "armybuilder")
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Route:
    route: str  # e.g. "api/v1/lists/<uuid:public_id>/"
    name: str
    view: object
    methods: tuple[str, ...]  # methods the view answers; () = unknown (function views: GET and POST are tried)

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def _methods(callback) -> tuple[str, ...]:
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if view_class is None:
        return ()
    return tuple(m.upper() for m in view_class.http_method_names
                 if m not in ("options", "head", "trace") and hasattr(view_class, m))


def routes() -> list[Route]:
    out = []
    for route, pattern in _walk(get_resolver().url_patterns):
        if any(route.startswith(prefix) for prefix in NOT_OURS) and route not in ALSO:
            continue
        if route.startswith("^") or "^" in route:  # a catch-all regex (the API's JSON 404): one sample path
            route = route.split("^", 1)[0] + "no-such-endpoint/"
        out.append(Route(route, pattern.name or "", pattern.callback, _methods(pattern.callback)))
    if not any(r.route == "admin/login/" for r in out):
        out.append(Route("admin/login/", "admin:login", None, ("GET", "POST")))
    return out


def request_methods(route: Route) -> tuple[str, ...]:
    return route.methods or ("GET", "POST")


def openapi_operations() -> list[tuple[str, str]]:
    """(method, path template) of every operation in the published OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [(method.upper(), path) for path, item in schema["paths"].items() for method in item
            if method in ("get", "post", "put", "patch", "delete")]


def openapi_path_matches(template: str, concrete: str) -> bool:
    pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
    return re.match(pattern, concrete) is not None


def our_commands() -> dict[str, object]:
    """name -> command instance, for every management command of this project's apps."""
    out = {}
    for name, app in sorted(get_commands().items()):
        if app.startswith(OUR_APPS):
            out[name] = load_command_class(app, name)
    return out
