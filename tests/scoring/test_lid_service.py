"""lingua's models in a process of their own, loaded from a command's start: same answers, never required."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mteval_gui import cli
from mteval_gui.app.langmodels import language_models, needs_detector
from mteval_gui.scoring.metrics import language_id, lid_service

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

TEXTS = [
    "AMHERST, MA, The Mullins Center, University of Massachusetts, Commonwealth Avenue",
    "Côte d'Ivoire – Présidentielle 2025 : Jean-Louis Billon.",
    "Wowu dumevi dzro 40 ya teti le amedzidzedzea me.",
    "Philip F.",
    "le chat dort sur le tapis",
]


@pytest.fixture
def service():
    lid_service.stop()
    started = lid_service.start("fra", "ewe")
    assert started is not None
    yield started
    lid_service.stop()


def _gone(pid: int) -> bool:
    """The process ended and was reaped (no zombie left)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_the_service_answers_what_lingua_answers_here(service):
    ident = language_id.LanguageIdentifier(["eng", "fra"])
    everything = language_id._AllLanguages()
    for text in TEXTS:
        via = ident.identify(text), everything.rank(text, "fra"), everything.rank(text, "eng")
        assert service.owner == os.getpid()
        lid_service.stop()  # the same questions, answered by this process's own models
        here = ident.identify(text), everything.rank(text, "fra"), everything.rank(text, "eng")
        assert via[0] is not None and here[0] is not None
        assert via[0].code == here[0].code and via[0].confidence == pytest.approx(here[0].confidence, abs=1e-9)
        assert via[1:] == here[1:]
        service = lid_service.start("fra", "ewe")
    assert ident.identify("Wowu dumevi dzro 40 ya teti le amedzidzedzea me.").code == "eng"  # lingua's (wrong) guess


def test_another_process_or_an_ended_service_makes_the_caller_use_its_own_models(service, monkeypatch):
    code, confidence = service.best(("eng", "fra"), "le chat dort sur le tapis")
    assert code == "fra" and 0.5 < confidence <= 1.0
    monkeypatch.setattr(lid_service.os, "getpid", lambda: -1)
    with pytest.raises(lid_service.Unavailable, match="another process"):
        service.rank("le chat dort", "fra")
    monkeypatch.undo()
    os.kill(service.pid, 9)
    os.waitpid(service.pid, 0)
    with pytest.raises(lid_service.Unavailable, match="ended"):
        service.best(("eng", "fra"), "le chat dort")
    assert lid_service.current() is None
    guess = language_id.LanguageIdentifier(["eng", "fra"]).identify("le chat dort sur le tapis")
    assert guess is not None and guess.code == "fra"


def test_a_question_the_service_cannot_answer_is_unavailable(service):
    with pytest.raises(lid_service.Unavailable, match="KeyError"):
        service.best(("eng", "xxx"), "le chat")
    assert service.best(("eng", "fra"), "the cat") is not None  # it goes on answering


def test_the_service_starts_only_when_code_switching_runs():
    from mteval_gui.scoring.metrics.behavioural import CodeSwitchingMetric

    assert (CodeSwitchingMetric.info.id,) == lid_service.USED_BY
    assert needs_detector(None, ())
    assert not needs_detector(None, ("core.code_switching",))
    assert not needs_detector(["core.chrf"], ())
    assert needs_detector(["core.chrf", "core.code_switching"], ())
    lid_service.stop()
    with language_models("fra", "ewe", metrics=["core.chrf"]):
        assert lid_service.current() is None
    with language_models("fra", "ewe"):
        service = lid_service.current()
        assert service is not None
    assert lid_service.current() is None and _gone(service.pid)


def test_evaluate_gives_the_same_card_with_the_service_and_leaves_no_process(tmp_path: Path, monkeypatch):
    src, ref, hyp = tmp_path / "src.txt", tmp_path / "ref.txt", tmp_path / "hyp.txt"
    src.write_text("le chat dort\nil pleut beaucoup aujourd'hui\nla maison est grande\nune grande maison\n",
                   encoding="utf-8")
    ref.write_text("avu la dɔ\ntsi dza ŋutɔ egbe\nxɔ la lolo\nxɔ gã aɖe\n", encoding="utf-8")
    # the last output has no function word: only the all-languages rank can confirm the detector
    hyp.write_text("le chat dort\ntsi dza ŋutɔ egbe\nthe house is big\ngrande maison\n", encoding="utf-8")

    def card(out: Path, *extra: str) -> dict:
        assert cli.main(["evaluate", "--corpus", str(src), "--ref", str(ref), "--run", str(hyp), "--lang", "ewe",
                         "--source-lang", "fra", "--bootstrap", "50", "--workers", "1", "-o", str(out),
                         *extra]) == 0
        data = json.loads(out.read_text(encoding="utf-8"))
        return {"scores": {k: v for k, v in data["scores"].items() if k != "entries_per_second"},
                "metrics": [r["metrics"] for r in data["results"]]}

    asked: list[str] = []
    pids: list[int] = []
    real, real_start = lid_service.Service.ask, lid_service.start
    monkeypatch.setattr(lid_service.Service, "ask", lambda self, *q: (asked.append(q[0]), real(self, *q))[1])
    monkeypatch.setattr(lid_service, "start", lambda *a, **k: (s := real_start(*a, **k), pids.append(s.pid))[0])
    with_service = card(tmp_path / "a.json")
    assert "best" in asked and "rank" in asked
    assert lid_service.current() is None and len(pids) == 1 and _gone(pids[0])
    monkeypatch.setattr(lid_service, "start", lambda *a, **k: None)  # no service: this process's own models
    asked.clear()
    without = card(tmp_path / "b.json")
    assert asked == []
    assert with_service == without
    assert with_service["metrics"][0]["core.code_switching"] == 1.0  # the French copy of the source
    assert with_service["metrics"][2]["core.code_switching"] == 1.0  # English
    assert with_service["metrics"][1]["core.code_switching"] == 0.0


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc")
def test_the_service_holds_none_of_the_commands_pipes(service):
    service.best(("eng", "fra"), "the cat")  # it has started serving
    for fd in (0, 1, 2):
        assert os.readlink(f"/proc/{service.pid}/fd/{fd}") == os.devnull


STOPPED_DRIVER = textwrap.dedent("""
    import json, os, signal, sys
    from mteval_gui import cli
    from mteval_gui.scoring.metrics import lid_service

    lid_service.ANSWER_TIME_LIMIT_S = 1.0  # the limit of one answer, shortened for the test
    mode, out, *argv = sys.argv[1:]
    started = []
    real_start = lid_service.start

    def start(*args, **kwargs):
        if mode == "none":
            return None
        service = real_start(*args, **kwargs)
        started.append(service.pid)
        with open(out + ".pid", "w") as fh:  # for the test to end it if this command never ends
            fh.write(str(service.pid))
        os.kill(service.pid, signal.SIGSTOP)  # it never answers
        return service

    lid_service.start = start
    code = cli.main([*argv, "-o", out])
    gone = []
    for pid in started:
        try:
            os.waitpid(pid, os.WNOHANG)
            gone.append(False)
        except ChildProcessError:
            gone.append(True)
    print(json.dumps({"code": code, "started": len(started), "gone": gone}))
""")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_stopped_service_does_not_hold_evaluate_up_and_changes_no_result(tmp_path: Path, workers: str):
    """The service is stopped (SIGSTOP) as soon as it starts: evaluate waits one time limit, kills
    and reaps it, and scores with its own models, to the same card as without a service. In a child
    with a generous limit, so that a regression fails instead of hanging."""
    src, ref, hyp = tmp_path / "src.txt", tmp_path / "ref.txt", tmp_path / "hyp.txt"
    src.write_text("le chat dort\nil pleut beaucoup aujourd'hui\nla maison est grande\n", encoding="utf-8")
    ref.write_text("avu la dɔ\ntsi dza ŋutɔ egbe\nxɔ la lolo\n", encoding="utf-8")
    hyp.write_text("le chat dort\ntsi dza ŋutɔ egbe\nthe house is big\n", encoding="utf-8")
    argv = ["evaluate", "--corpus", str(src), "--ref", str(ref), "--run", str(hyp), "--lang", "ewe",
            "--source-lang", "fra", "--bootstrap", "50", "--workers", workers]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    cards = {}
    for mode in ("stopped", "none"):
        out = tmp_path / f"{mode}.json"
        try:
            done = subprocess.run([sys.executable, "-c", STOPPED_DRIVER, mode, str(out), *argv], env=env,
                                  capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:  # the command hung: its stopped service is not left behind
            pid_file = Path(str(out) + ".pid")
            if pid_file.exists():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid_file.read_text()), signal.SIGKILL)
            raise
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout.splitlines()[-1])
        assert report == ({"code": 0, "started": 1, "gone": [True]} if mode == "stopped"
                          else {"code": 0, "started": 0, "gone": []})
        data = json.loads(out.read_text(encoding="utf-8"))
        cards[mode] = ({k: v for k, v in data["scores"].items() if k != "entries_per_second"},
                       [r["metrics"] for r in data["results"]])
    assert cards["stopped"] == cards["none"]
    assert [m["core.code_switching"] for m in cards["stopped"][1]] == [1.0, 0.0, 1.0]
