import cProfile, os, pstats, sys, time, re
sys.path.insert(0, os.path.dirname(__file__))
import bench_real_builder as b
from _setup import ROOT, django_with_data

def main():
    db = f"/tmp/prof-{os.getpid()}.sqlite3"
    django_with_data(db)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import include, path, reverse
    from armybuilder.interchange.battlescribe import import_library
    from armybuilder.lists import services as s
    from armybuilder.lists.models import ArmyList, ListFormation
    call_command("load_handbooks", str(ROOT / "handbooks" / "data" / "systems"), verbosity=0)
    import_library([b.LIBRARY])
    book, _ = b.largest_book()
    b.urlpatterns[:] = [path("", include("armybuilder.urls"))]
    with override_settings(ROOT_URLCONF=b.__name__):
        user = get_user_model().objects.create_user("bench", password="bench-password-123")
        army, formation = b.build_force(user, book)
        client = Client(); client.force_login(user)
        url = reverse("web:builder", args=[army.public_id])
        def state():
            html = client.get(url).content.decode()
            seen = re.findall(r'<section class="(?:formation|box)\b[^"]*" id="([^"]+)"[^>]*data-digest="([0-9a-f]+)"', html)
            return {"HTTP_X_CARDS_DIGEST": re.search(r'id="cards"[^>]*data-digest="([0-9a-f]+)"', html)[1],
                    "HTTP_X_CHART_DIGEST": re.search(r'id="composition-chart"[^>]*data-digest="([0-9a-f]+)"', html)[1],
                    "HTTP_X_BUILDER_BOXES": " ".join(f"{a}={d}" for a, d in seen)}
        which = sys.argv[1]
        prof = cProfile.Profile()
        names = iter(["A", "B"] * 100)
        for i in range(30):
            h = state()
            v = ArmyList.objects.values_list("version", flat=True).get(pk=army.pk)
            if which == "add":
                data = {"formation": formation.code}
            else:
                data = {"name": next(names), "points_limit": 200, "variant": ""}
            from django.db import connection
            from django.test.utils import CaptureQueriesContext
            cq = CaptureQueriesContext(connection)
            cq.__enter__()
            prof.enable()
            r = client.post(reverse("web:action", args=[army.public_id, "add-formation" if which == "add" else "settings"]),
                            dict(data, version=v), HTTP_HX_REQUEST="true", **h)
            prof.disable()
            cq.__exit__(None, None, None)
            if i == 29:
                for q in cq.captured_queries: print("Q", q["sql"][:300])
            assert r.status_code == 200
            if which == "add":
                s.army_list_remove_formation(army_list=army, list_formation=ListFormation.objects.filter(army_list=army).order_by("pk").last())
        st = pstats.Stats(prof); st.sort_stats(os.environ.get("SORT","cumulative")).print_stats(int(os.environ.get('N','70')))
    os.remove(db)
main()
