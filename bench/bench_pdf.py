"""How long a printable roster with unit cards takes for a force of three formations and about 25 units.

Prints the median time of ``roster_pdf_render`` (card data queries, template, QR code
and WeasyPrint) and its ratio to WeasyPrint alone rendering the same HTML, saved as a
static file, with the same (cached) stylesheet; both measured in this run.
Budget: under 1.5 s, ratio under 1.3.

    python bench/bench_pdf.py [--repeat N] [--keep OUT.pdf]
"""
import argparse
import statistics
import tempfile
import time
from io import BytesIO
from pathlib import Path

from _setup import django_with_data


def unit(box, code, size, *upgrades):
    return {"box": box, "unit": code, "size": size,
            "upgrades": [{"upgrade": u, "quantity": 1} if isinstance(u, str) else {"upgrade": u[0], "quantity": u[1]}
                         for u in upgrades]}


def big_document() -> dict:
    """26 units (23 distinct) in three formations and support, with command cards, from the sample Afrika Korps."""
    panzer_company = {"formation": "SG100", "allied": False, "units": [
        unit("SG100/hq", "SG101", "two-tanks", "gun/long-5cm"),
        unit("SG100/panzer-1", "SG102", "three-tanks", "gun/short-5cm"),
        unit("SG100/panzer-2", "SG102", "three-tanks", "gun/short-5cm"),
        unit("SG100/panzer-3", "SG103", "three-tanks", "field-kit/schurzen"),
        unit("SG100/light-panzer", "SG104", "three-tanks"),
        unit("SG100/grenadiers", "SG105", "seven-teams", "transport/sdkfz251", ("anti-tank/panzerschreck", 2)),
        unit("SG100/anti-tank", "SG115", "three-guns", "transport/sdkfz11"),
        unit("SG100/heavy-aa", "SG107", "two-guns", "transport/sdkfz7"),
        unit("SG100/tank-hunters", "SG108", "three-tanks"),
    ]}
    grenadier_company = {"formation": "SG150", "allied": False, "units": [
        unit("SG150/hq", "SG116", "two-teams", "transport/sdkfz251"),
        unit("SG150/grenadiers-1", "SG105", "seven-teams", "transport/sdkfz251"),
        unit("SG150/grenadiers-2", "SG106", "seven-teams", "transport/opel-blitz"),
        unit("SG150/grenadiers-3", "SG106", "seven-teams", "transport/opel-blitz"),
        unit("SG150/mortars", "SG117", "six-mortars"),
        unit("SG150/anti-tank", "SG115", "three-guns", "transport/sdkfz11"),
        unit("SG150/panzers", "SG102", "four-tanks", "gun/long-5cm", "field-kit/schurzen"),
        unit("SG150/heavy-aa", "SG107", "one-gun"),
    ]}
    second_panzer_company = {"formation": "SG100", "allied": False, "units": [
        unit("SG100/hq", "SG101", "one-tank", "gun/short-5cm"),
        unit("SG100/panzer-1", "SG103", "two-tanks"),
        unit("SG100/panzer-2", "SG102", "five-tanks", "gun/long-5cm"),
        unit("SG100/light-panzer", "SG104", "two-tanks"),
    ]}
    support = [
        unit("force/artillery", "SG111", "eight-guns"),
        unit("force/observer", "SG112", "observer-radio", "vehicle/sdkfz253"),
        unit("force/anti-aircraft", "SG113", "four-guns"),
        unit("force/recce", "SG114", "three-cars"),
        unit("force/air", "SG109", "two-aircraft"),
    ]
    return {"format": "armybuilder-list", "version": 1, "name": "Benchmark Kampfgruppe", "system": "fow4",
            "handbook": {"code": "sample-afrika-korps", "revision": 1}, "points_limit": 250, "variant": "pz21",
            "year": None, "notes": "", "formations": [panzer_company, grenadier_company, second_panzer_company],
            "support": support,
            "cards": [{"card": "veteran-panzer-crews", "target": "/formations/0/units/1"},
                      {"card": "mixed-battlegroup", "target": "/formations/1"},
                      {"card": "forward-command-post"}]}


def timed(fn) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one call (CPU time is steadier on a busy machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="also write the roster PDF here")
    args = parser.parse_args()

    django_with_data()
    from pypdf import PdfReader

    from armybuilder.lists import services
    from armybuilder.lists.selectors import army_list_document, army_list_force, army_list_report
    from armybuilder.services.printing.render import roster_html, stylesheet
    from armybuilder.services.printing.selectors import roster_print_data
    from armybuilder.services.printing.services import roster_pdf

    army = services.army_list_import(doc=big_document(), session_key="bench")
    document = army_list_document(army)
    force = army_list_force(army)
    report = army_list_report(army)
    kwargs = dict(force=force, report=report, document=document, paper="a4", cards=True, player="Bench Player",
                  event="Bench Open", list_url=f"https://example.org/s/{army.share_token}/")

    stylesheet()  # parse the stylesheet once, as a long-lived server process does
    pdf = roster_pdf(**kwargs)  # warm-up: imports, fonts, caches
    pages = len(PdfReader(BytesIO(pdf)).pages)
    if args.keep:
        args.keep.write_bytes(pdf)

    with tempfile.TemporaryDirectory() as folder:
        static = Path(folder) / "roster.html"
        static.write_text(roster_html(**kwargs, **roster_print_data(force)), encoding="utf-8")
        import weasyprint

        from armybuilder.services.printing import render

        _, fonts, css, fetcher = render._weasy()

        def static_render():
            return weasyprint.HTML(filename=str(static), url_fetcher=fetcher).write_pdf(stylesheets=[css],
                                                                                      font_config=fonts)

        static_render()
        # Interleave the two so that machine noise hits both alike.
        ours, baseline, html_only = [], [], []
        for _ in range(args.repeat):
            ours.append(timed(lambda: roster_pdf(**kwargs)))
            baseline.append(timed(static_render))
            html_only.append(timed(lambda: roster_html(**kwargs, **roster_print_data(force))))
        html_size = static.stat().st_size

    units = sum(1 for _ in force.all_units())
    distinct = len({(u.unit.code, u.size.code if u.size else None,
                     tuple(sorted((x.upgrade.code, x.quantity) for x in u.upgrades))) for u in force.all_units()})
    print(f"force: {len(force.formations)} formations, {units} units ({distinct} distinct cards), "
          f"{len(force.cards)} command cards, {report.total_points} points")
    print(f"PDF: {pages} pages, {len(pdf) // 1024} KiB; HTML {html_size // 1024} KiB")
    for index, clock in enumerate(["wall", "CPU"]):
        ours_s = statistics.median(sample[index] for sample in ours)
        base_s = statistics.median(sample[index] for sample in baseline)
        print(f"{clock:>4} roster_pdf_render (median of {args.repeat}):       {ours_s:.3f} s   (budget 1.5 s)")
        print(f"{clock:>4} WeasyPrint, static HTML (median of {args.repeat}): {base_s:.3f} s")
        print(f"{clock:>4} ratio roster / static:                   {ours_s / base_s:.2f}   (budget 1.3)")
    html_s = statistics.median(sample[0] for sample in html_only)
    print(f"of which card data queries, template and QR code (wall): {html_s * 1000:.0f} ms")


if __name__ == "__main__":
    main()
