"""`manage.py verify-answers CASES.jsonl [--json]` on labelled verification cases."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import ROOT

CASES = ROOT / "fixtures" / "eval" / "verify_cases.jsonl"


def pick_cases() -> list[dict]:
    """Two faithful cases and one of each corruption type, in file order."""
    picked, seen = [], set()
    for line in CASES.read_text().splitlines():
        case = json.loads(line)
        kind = case.get("corruption") or "faithful"
        if kind not in seen or (kind == "faithful" and sum(1 for c in picked if c["faithful"]) < 2):
            picked.append(case)
            seen.add(kind)
    return picked


@pytest.fixture
def cases_file(tmp_path):
    cases = pick_cases()
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in cases) + "\n")
    return path, cases


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("verify_answers", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_prints_one_line_per_case_in_order_with_sentence_verdicts(cases_file):
    path, cases = cases_file
    out, err = run(path, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["id"] for line in lines] == [c["id"] for c in cases]
    for line, case in zip(lines, cases):
        assert set(line) == {"id", "faithful", "sentences"} and isinstance(line["faithful"], bool)
        assert line["sentences"] and all(set(s) == {"text", "verdict", "reason"} for s in line["sentences"])
        assert all(s["verdict"] in ("supported", "unsupported", "contradicted") for s in line["sentences"])
        # sentences come in the answer's order
        positions = [case["answer"].find(s["text"]) for s in line["sentences"]]
        assert all(p >= 0 for p in positions) and positions == sorted(positions)
        if not line["faithful"]:
            assert any(s["verdict"] != "supported" and s["reason"] for s in line["sentences"])

    metrics = json.loads(err)["metrics"]
    assert metrics["cases"] == len(cases) and metrics["faithful"] == 2 and metrics["corrupted"] == len(cases) - 2
    assert set(metrics["recall"]) == {c["corruption"] for c in cases if c["corruption"]}
    assert 0 <= metrics["detection_recall"] <= 1 and 0 <= metrics["false_flag_rate"] <= 1
    by_id = {line["id"]: line for line in lines}
    flagged_corrupt = sum(1 for c in cases if not c["faithful"] and not by_id[c["id"]]["faithful"])
    assert metrics["detection_recall"] == round(flagged_corrupt / metrics["corrupted"], 4)


def test_text_metrics_without_json_and_none_for_unlabelled_cases(cases_file, tmp_path):
    path, cases = cases_file
    out, err = run(path, "--no-embed")
    assert len(out.splitlines()) == len(cases)
    assert "detection recall" in err and "false-flag rate" in err and "fabricated_url" in err

    unlabelled = tmp_path / "plain.jsonl"
    unlabelled.write_text(json.dumps({k: cases[0][k] for k in ("id", "question", "answer", "sources")}) + "\n")
    out, err = run(unlabelled, "--no-embed")
    assert json.loads(out)["id"] == cases[0]["id"] and err == ""


def test_a_bad_line_is_named(tmp_path, cases_file):
    path, cases = cases_file
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(cases[0]) + "\n\n{not json\n")
    with pytest.raises(CommandError, match=r"line 3: not valid JSON"):
        run(bad)
    bad.write_text(json.dumps({"id": "x", "answer": "A [1].", "sources": [{"n": 1}]}) + "\n")
    with pytest.raises(CommandError, match=r'line 1: sources\[0\] needs "n" and "text"'):
        run(bad)


def test_the_hyphenated_name_works_from_manage_py(cases_file):
    path, cases = cases_file
    done = subprocess.run([sys.executable, "manage.py", "verify-answers", str(path), "--no-embed", "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(cases)
    assert "detection_recall" in done.stderr
