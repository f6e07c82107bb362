"""The desktop's rating queue carries the review packs' attention checks and repeats: one schedule per
reviewer and run, kept in the workspace, answered as check judgments that quality control counts."""

from __future__ import annotations

import pytest

from mteval_gui.app import signoff
from mteval_gui.app.desktop_checks import (
    check_history,
    check_judgment,
    check_statuses,
    desktop_queue,
    queue_id,
)
from mteval_gui.app.review import ratings, record_judgment
from mteval_gui.app.review_pack import insert_checks
from mteval_gui.app.reviewer_qc import excluded_reviewers, reviewer_quality
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import MtevalError, StoreError
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from mteval_gui.store.packs import get_pack
from tests.app.qc_helpers import make_study
from tests.store.judgment_helpers import add_corpus, add_outputs, add_run

AMA_S1 = [  # (number, entry, check, kind, output, after) of ama's queue of s1 with 2 checks and 2 repeats
    (5, "e1", "attention", "wrong_sentence", "kwame afua kojo abena yaw", "e4"),
    (7, "e0", "attention", "shuffled", "kofi ama esi yaa", "e5"),
    (10, "e0", "repeat", None, None, "e7"),
    (11, "e1", "repeat", None, None, "e7"),
]


@pytest.fixture
def study(tmp_path):
    w = make_study(Workspace(tmp_path / "ws.sqlite"))
    yield w
    w.close()


def _slots(queue):
    return [(s.number, s.entry_id, s.check, s.kind, s.output, s.after) for s in queue.slots]


def test_the_schedule_is_the_packs_generator_per_reviewer_and_survives_a_restart(study, tmp_path):
    assert desktop_queue(study, "s1", "ama", 0, 0) is None  # off by default: nothing recorded
    q = desktop_queue(study, "s1", "ama", 2, 2)
    assert q.queue_id == queue_id("ama", "s1", 2, 2) and q.queue_id.startswith("dq-")
    assert _slots(q) == AMA_S1
    # the one generator of the review packs, over the run's entries in corpus order, seeded by the reviewer
    items, placed = insert_checks(study, [("s1", f"e{i}", None, {}) for i in range(8)], 2, 2, 0, "ama")
    assert {n: (c["check"], c["kind"], c["output"]) for n, c in placed.items()} == {
        n: (c, k, o) for n, _, c, k, o, _ in AMA_S1}
    assert [items[n][1] for n, *_ in AMA_S1] == ["e1", "e0", "e0", "e1"]
    record = get_pack(study, q.queue_id)
    assert (record.reviewer_id, record.meta["desktop"], record.meta["runs"], record.items) == (
        "ama", True, ["s1"], [("s1", "e1", None), ("s1", "e0", None), ("s1", "e0", None), ("s1", "e1", None)])
    # another reviewer meets other checks; the same reviewer the same ones, after the workspace is reopened
    assert _slots(desktop_queue(study, "s1", "kofi", 2, 2)) != AMA_S1
    path = study.path
    study.close()
    again = Workspace(path)
    try:
        assert desktop_queue(again, "s1", "ama", 2, 2) == q
        # outputs changed since (a new import of the run): the recorded checks are still the ones shown
        again.conn.execute("UPDATE outputs SET predicted = 'x y z w' WHERE run_id = 's1'")
        again.conn.commit()
        assert _slots(desktop_queue(again, "s1", "ama", 2, 2)) == AMA_S1
    finally:
        again.close()


def test_refused_settings_and_unknown_names(study):
    with pytest.raises(MtevalError, match="attention checks and repeated items must be 0 to 100"):
        desktop_queue(study, "s1", "ama", -1, 0)
    with pytest.raises(StoreError, match="unknown reviewer 'nobody'"):
        desktop_queue(study, "s1", "nobody", 1, 0)
    with pytest.raises(StoreError, match="unknown run 'zz'"):
        desktop_queue(study, "zz", "ama", 1, 0)


def test_a_check_answer_is_a_check_judgment_never_a_rating_and_keeps_no_spans(study):
    q = desktop_queue(study, "s1", "ama", 2, 2)
    attention = q.slots[1]
    saved = record_judgment(study, check_judgment(q, attention, adequacy=4, fluency=3, note="odd", flagged=False,
                                                  payload={"spans": [], "correction": "x", "esa_score": 40}))
    assert (saved.task, saved.run_id, saved.entry_id, saved.adequacy, saved.fluency) == ("check", "s1", "e0", 4, 3)
    assert saved.payload == {"check": "attention", "check_id": f"{q.queue_id}/7", "kind": "shuffled"}
    assert ratings(study, ["s1"]) == []
    record_judgment(study, check_judgment(q, attention, adequacy=2, fluency=3, note=None, flagged=False))
    assert [(j.version, j.adequacy) for j in check_history(study, q, attention)] == [(1, 4), (2, 2)]
    assert check_statuses(study, q) == [0, 1, 0, 0]  # none, rated, none, none


def _fluent_study(ws: Workspace) -> list[str]:
    entries = [f"e{i}" for i in range(30)]
    words = ["ama", "kofi", "yaa", "esi", "kwame", "afua", "kojo", "abena", "yaw", "akosua"]
    add_corpus(ws, "c", entries, target_lang="ewe")
    add_run(ws, "fluent", "c", tier="fluent")
    add_outputs(ws, "fluent", {e: " ".join(words[(i + k) % 10] for k in range(4 + i % 3))
                               for i, e in enumerate(entries)})
    for rid, name in (("ama", "Ama"), ("kofi", "Kofi")):
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=name, languages=["ewe"]))
    return entries


def test_a_desktop_reviewer_failing_the_checks_is_flagged_and_left_out_of_the_signoff(workspace):
    entries = _fluent_study(workspace)
    for rid in ("ama", "kofi"):
        for i, e in enumerate(entries):
            a = 4 if i % 3 == 0 else 5
            record_judgment(workspace, Judgment(reviewer_id=rid, run_id="fluent", entry_id=e, adequacy=a, fluency=a))
    answers = {"ama": (1, 1), "kofi": (5, 5)}  # ama sees the known-bad outputs; kofi rates them top
    for rid, (a, f) in answers.items():
        q = desktop_queue(workspace, "fluent", rid, 3, 1)
        assert [s.check for s in q.slots].count("attention") == 3
        for slot in q.slots:
            if slot.check == "attention":
                record_judgment(workspace, check_judgment(q, slot, adequacy=a, fluency=f, note=None, flagged=False))
            else:  # the repeat rated as the first time
                real = 4 if entries.index(slot.entry_id) % 3 == 0 else 5
                record_judgment(workspace, check_judgment(q, slot, adequacy=real, fluency=real, note=None,
                                                          flagged=False))
    quality = reviewer_quality(workspace)
    assert [(q.reviewer, q.checks, q.decisive, q.failed, q.repeats, q.repeat_difference) for q in quality.values()] \
        == [("ama", 3, 3, 0, 1, 0.0), ("kofi", 3, 3, 3, 1, 0.0)]
    why = ("inattentive: rated the known-bad item at least as high as the real one in 3 of 3 attention checks "
           "(flagged above 1 failed and above 20% of them)")
    assert excluded_reviewers(workspace) == {"kofi": why}
    ev = signoff.signoff_evidence(workspace, "fluent")
    assert (ev.reviewers, ev.speakers, ev.excluded) == (1, ("ama",), (("kofi", why),))
    assert f"the ratings of kofi do not count: quality control flags them ({why})" in ev.missing
    # the checks' answers are no ratings: each reviewer has the 30 ratings of the real entries
    assert len(ratings(workspace, ["fluent"])) == 60
    with pytest.raises(signoff.SignoffRefused) as refused:
        signoff.signoff(workspace, "fluent", "kofi", "confirm")
    assert refused.value.problems[0] == f"reviewer kofi cannot confirm a tier of fluent: quality control flags them " \
                                        f"({why})"
