"""A forked process answering one function for a scoring process and the helper it forks."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from mteval_gui.scoring import service
from mteval_gui.scoring.metrics import language_id
from mteval_gui.scoring.service import ForkedService, ServiceUnavailable

pytestmark = pytest.mark.skipif(not service.available(), reason="needs os.fork and Unix sockets")


def _shout(text: str) -> list[object]:
    if text == "fail":
        raise ValueError("no answer for that")
    return [text.upper(), os.getpid()]


def _in_a_forked_child(fn) -> object:
    """``fn()`` run in a child forked now; its JSON result."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.write(w, json.dumps(fn()).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        out = f.read()
    os.waitpid(pid, 0)
    return json.loads(out)


def _ended(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        return stat.read_text().split(") ", 1)[1].startswith("Z")  # a zombie has ended
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_one_other_process_answers_this_one_and_a_process_forked_later():
    svc = ForkedService(_shout, name="test")
    try:
        here = svc.ask("ŋu ɖe")
        there = _in_a_forked_child(lambda: svc.ask("eʋe"))
        assert here == ["ŊU ƉE", svc.pid] and there == ["eʋe".upper(), svc.pid]
        assert svc.pid not in (os.getpid(), None)
        assert svc.ask("again") == ["AGAIN", svc.pid]  # the same connection, the same process
    finally:
        svc.close()


def test_a_failing_handler_or_an_ended_service_is_unavailable_not_an_answer():
    svc = ForkedService(_shout, name="test")
    pid = svc.pid
    assert pid is not None
    with pytest.raises(ServiceUnavailable, match="ValueError: no answer for that"):
        svc.ask("fail")
    assert svc.ask("ok") == ["OK", pid]  # one failed request does not end it
    folder = Path(svc.path).parent
    svc.close()
    assert _ended(pid) and not folder.exists()
    with pytest.raises(ServiceUnavailable):
        svc.ask("ok")


def test_the_service_ends_with_the_processes_that_could_ask_it():
    def start_and_leave() -> int:
        svc = ForkedService(_shout, name="test")
        assert svc.pid is not None
        return svc.pid  # the child exits without closing it

    pid = _in_a_forked_child(start_and_leave)
    assert isinstance(pid, int)
    deadline = time.monotonic() + 20
    while not _ended(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _ended(pid)


@pytest.fixture
def no_service():
    language_id.stop_service()
    yield
    language_id.stop_service()


@pytest.mark.skipif(not language_id.known_languages(), reason="needs lingua")
def test_shared_detectors_give_the_answers_they_give_alone_and_load_their_models_elsewhere(no_service):
    texts = ["Bonjour tout le monde", "Philip F.", "Wonya kuku eneawo nyuie.",
             "AMHERST, MA, The Mullins Center, University of Massachusetts, Commonwealth Ave."]
    alone = language_id.LanguageIdentifier(["fra", "eng"])
    expected = [alone.identify(t) for t in texts]
    assert expected[0] == language_id.LanguageGuess("fra", expected[0].confidence) and expected[0].confidence > 0.9
    ranks = [language_id.all_languages()._rank_here(t, "fra") for t in texts]  # type: ignore[union-attr]
    assert ranks[0] == 0 and all(r is None or r >= 0 for r in ranks)
    shared = language_id.LanguageIdentifier(["fra", "eng"])
    everything = language_id._AllLanguages()
    assert shared.share()

    def same(guesses: list[language_id.LanguageGuess | None]) -> None:
        # lingua's own confidences differ in the last bit from call to call (its sums' order)
        assert [g and g.code for g in guesses] == [g and g.code for g in expected]
        assert [g and g.confidence for g in guesses] == pytest.approx([g and g.confidence for g in expected],
                                                                     rel=1e-12)

    same([shared.identify(t) for t in texts])
    assert [everything.rank(t, "fra") for t in texts] == ranks
    child = _in_a_forked_child(lambda: [[g.code, g.confidence] if (g := shared.identify(t)) else None
                                        for t in texts] + [everything.rank(t, "fra") for t in texts])
    assert isinstance(child, list)
    same([language_id.LanguageGuess(c[0], c[1]) if c else None for c in child[:len(texts)]])
    assert child[len(texts):] == ranks
    assert not shared._used_here and not everything.used_here  # the models were loaded by the service
    language_id.stop_service()
    same([shared.identify(t) for t in texts])  # the service gone: computed here
    assert shared._used_here
    assert not shared.share()  # both loaded here now: a helper would inherit them
