"""Run every benchmark in turn and print its figures (each measures its own baseline in the same run)."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ["bench_check.py", "bench_check_imported.py", "bench_builder.py", "bench_real_builder.py", "bench_pdf.py",
           "bench_api.py", "bench_battlescribe_import.py", "bench_load.py",
           "bench_event_dashboard.py", "bench_event_pack.py"]


def main() -> int:
    failed = []
    for script in SCRIPTS:
        print(f"\n=== {script} ===", flush=True)
        if subprocess.run([sys.executable, str(HERE / script)], cwd=HERE.parent).returncode != 0:
            failed.append(script)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
