"""`make bench` is not part of `make test`, so a benchmark that no longer imports (a helper moved to textcore)
would go unnoticed until someone measures: every benchmark module must at least be collected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_benchmark_module_imports() -> None:
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", str(ROOT / "tests" / "bench")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "tests collected" in run.stdout or "test collected" in run.stdout
