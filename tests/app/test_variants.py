"""Speakers' corrections and approved outputs become accepted variants in a new corpus version."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import review
from mteval_gui.app.scoring import score_workspace_run
from mteval_gui.app.variants import promote_variants, promotion_candidates
from mteval_gui.cli import main
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import StoreError
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J
from mteval_gui.store.results import load_run_card
from mteval_gui.store.versions import corpus_versions, next_version

REFS = {"e1": ("I say so", "nititwân"), "e2": ("you leave", "kisipwêhtân"), "e3": ("as I am", "ê-ayâyân")}


@pytest.fixture
def ws(tmp_path):
    w = Workspace(tmp_path / "ws.sqlite")
    entries = [Entry(id=k, source=s, reference=r) for k, (s, r) in REFS.items()]
    repo.add_corpus(w, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=entries))
    for run_id, outs in (("sys1", ["kititwân", "kisipwêhtân", "ê-ayâyan"]),
                         ("sys2", ["ê-itwêyân", "kisipwêhtânâwâw", "ê-ayâyân"])):
        repo.import_run(w, Run(corpus_id="c", meta=RunMeta(run_id=run_id),
                               outputs=[Output(id=e, predicted=p) for e, p in zip(REFS, outs, strict=True)]))
    J.add_reviewer(w, Reviewer(reviewer_id="ana", name="Ana"))
    yield w
    w.close()


def verdict(card, entry_id):
    result = next(r for r in card.results if r.entry_id == entry_id)
    return result.lint_verdict["verdict"]


def test_next_version():
    assert next_version("1", ["1"]) == "1+s1"
    assert next_version("1+s1", ["1", "1+s1"]) == "1+s2"
    assert next_version("2024-06", ["2024-06", "2024-06+s1", "2024-06+s2"]) == "2024-06+s3"


def test_a_promoted_correction_turns_the_entry_equivalent_in_a_new_version(ws):
    score_workspace_run(ws, "sys2", n_bootstrap=10)
    before = load_run_card(ws, "sys2")  # the result's card leaves its results[] to the stored text
    assert (before.dataset.version, verdict(before, "e1")) == ("1", "MISS")
    old_sha = before.dataset.sha256
    # a speaker corrects sys1's wrong form with another valid rendering: the one sys2 produced
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e1", adequacy=2,
                                        payload={"correction": "ê-itwêyân"}))
    done = promote_variants(ws, ["sys1"], by="lead")
    assert [(p.corpus_id, p.old_version, p.new_version, [(c.entry_id, c.variant, c.basis) for c in p.added])
            for p in done] == [("c", "1", "1+s1", [("e1", "ê-itwêyân", "correction")])]
    assert repo.get_entry(ws, "c", "e1").variants == ["ê-itwêyân"]
    info = repo.get_corpus_info(ws, "c")
    assert info["version"] == "1+s1" and info["sha256"] != old_sha
    assert [(v["version"], v["parent_version"], v["sha256"]) for v in corpus_versions(ws, "c")] == [
        ("1", None, old_sha), ("1+s1", "1", info["sha256"])]
    # the earlier run card still names the version it was scored on
    stored = load_run_card(ws, "sys2")
    assert (stored.dataset.version, stored.dataset.sha256) == ("1", old_sha)
    # rescoring reads the new variant: EQUIVALENT, and the card says where the variant came from
    score_workspace_run(ws, "sys2", n_bootstrap=10)
    after = load_run_card(ws, "sys2")
    assert (after.dataset.version, after.dataset.sha256) == ("1+s1", info["sha256"])
    assert verdict(after, "e1") == "EQUIVALENT"
    assert after.scores.equivalent_match_rate > before.scores.equivalent_match_rate
    [sv] = after.dataset.speaker_variants
    assert {k: sv[k] for k in ("entry_id", "variant", "basis", "reviewer_id", "run_id", "version")} == {
        "entry_id": "e1", "variant": "ê-itwêyân", "basis": "correction", "reviewer_id": "ana", "run_id": "sys1",
        "version": "1+s1"}
    assert before.dataset.speaker_variants == []


def test_adequacy_five_and_task_b_outputs_are_promoted_once(ws):
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e3", adequacy=5, fluency=5))
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys2", entry_id="e2", task="B",
                                        payload={"same_meaning": "Yes", "natural": "Yes"}))
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e2", adequacy=5))  # = reference
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys2", entry_id="e1", task="B",
                                        payload={"same_meaning": "Yes", "natural": "A better"}))  # not natural
    cands = promotion_candidates(ws, ["sys1", "sys2"])
    assert [(c.run_id, c.entry_id, c.variant, c.basis) for c in cands] == [
        ("sys1", "e3", "ê-ayâyan", "adequacy5"), ("sys1", "e2", "kisipwêhtân", "adequacy5"),
        ("sys2", "e2", "kisipwêhtânâwâw", "task_b")]
    [p] = promote_variants(ws, ["sys1", "sys2"], dry_run=True)
    assert p.new_version is None and [c.entry_id for c in p.added] == ["e3", "e2"]
    assert [why for _, why in p.skipped] == ["already the reference or an accepted variant"]
    assert repo.get_corpus_info(ws, "c")["version"] == "1"  # a dry run changes nothing
    [p] = promote_variants(ws, ["sys1", "sys2"], bases=["task_b"])
    assert p.new_version == "1+s1" and repo.get_entry(ws, "c", "e2").variants == ["kisipwêhtânâwâw"]
    [p] = promote_variants(ws, ["sys1", "sys2"])
    assert p.new_version == "1+s2" and [c.basis for c in p.added] == ["adequacy5"]
    [p] = promote_variants(ws, ["sys1", "sys2"])
    assert p.added == [] and p.new_version is None


def test_cli_promote_and_versions(ws, capsys):
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e1", adequacy=1,
                                        payload={"correction": "nititwânân"}))
    db = ["--db", str(ws.path)]
    assert main([*db, "variants", "promote", "sys1", "--dry-run"]) == 0
    assert "would add 1 variant" in capsys.readouterr().out
    assert main([*db, "variants", "promote", "sys1", "--by", "lead"]) == 0
    out = capsys.readouterr().out
    assert "corpus c: version 1 -> 1+s1; added 1 variant, skipped 0" in out
    assert "  + e1: nititwânân  (correction, ana, run sys1)" in out
    assert main([*db, "variants", "promote", "sys1"]) == 1
    assert "nothing to promote" in capsys.readouterr().err
    assert main([*db, "variants", "versions", "c", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["version"] for r in rows] == ["1", "1+s1"] and rows[1]["created_by"] == "lead"
    with pytest.raises(StoreError, match="unknown run"):
        promote_variants(ws, ["nope"])


BAD_CORRECTIONS = [
    ("\u200b", "correction has no visible character (only spaces, zero-width or format characters)"),
    (" \u2060\u00a0\u200d ", "correction has no visible character (only spaces, zero-width or format characters)"),
    ("nitit\x1b[2Jwân", "correction holds the control character U+001B (character 6)"),
    ("x" * 5_000_000, "correction is 5,000,000 characters long (at most 10,000)"),
]


def test_corrections_with_nothing_visible_controls_or_megabytes_are_refused_when_recorded(ws):
    """A zero-width or a 5 MB correction was saved and then promoted to an accepted variant."""
    for text, why in BAD_CORRECTIONS:
        with pytest.raises(StoreError) as err:
            review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e1", adequacy=2,
                                                payload={"correction": text}))
        assert str(err.value) == f"judgment not saved: {why}"
    assert J.current_judgments(ws) == []
    # the longest correction taken: 10,000 characters; a joiner inside a word stays
    for text in ("x" * 10_000, "ᓂᓂᐹᐣ\u200dᐠ"):
        j = review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e1", adequacy=2,
                                                payload={"correction": text}))
        assert j.payload["correction"] == text


def test_corrections_refused_on_import_too(ws, tmp_path, capsys):
    rows = [{"reviewer_id": "ana", "run_id": "sys1", "entry_id": "e1", "adequacy": 2,
             "payload": {"correction": text}} for text, _ in BAD_CORRECTIONS]
    path = tmp_path / "j.json"
    path.write_text(json.dumps(rows, indent=0), encoding="utf-8")
    assert main(["--db", str(ws.path), "judgments", "import", str(path)]) == 2
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = [i + 1 for i, ln in enumerate(lines) if ln == "{"]
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:{line}: {why}" for line, (_, why) in zip(starts, BAD_CORRECTIONS, strict=True)
    ] + ["mteval: 4 problems found; nothing was written"]
    assert J.current_judgments(ws) == []


def test_promote_skips_unfit_stored_corrections_and_prints_texts_with_controls_escaped(ws, capsys):
    """`variants promote` printed a correction's terminal escapes raw (and promoted it)."""
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e1", adequacy=2,
                                        payload={"correction": "nititwân\u202e!"}))
    j = review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e3", adequacy=2,
                                            payload={"correction": "placeholder"}))
    with ws.transaction() as c:  # as a version without the checks stored it
        c.execute("UPDATE judgments SET payload = ? WHERE judgment_id = ?",
                  (json.dumps({"correction": "ê-ayâ\x1b]0;owned\x07yân"}), j.judgment_id))
    assert main(["--db", str(ws.path), "variants", "promote", "sys1", "--basis", "correction"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    assert out.splitlines()[:3] == [
        "corpus c: version 1 -> 1+s1; added 1 variant, skipped 1",
        "  + e1: nititwân\\u202e!  (correction, ana, run sys1)",
        "  - e3: not added, the text holds the control character U+001B (character 6) (correction, ana, run sys1)"]
    assert repo.get_entry(ws, "c", "e1").variants == ["nititwân\u202e!"]
    assert repo.get_entry(ws, "c", "e3").variants == []


def test_term_safe_escapes_terminal_controls():
    from mteval_gui.cli._common import term_safe

    assert term_safe("a\x1b[31mb\x9b\x07\u202e\u2066c\td\ne") == "a\\x1b[31mb\\x9b\\x07\\u202e\\u2066c\td\\x0ae"
    assert term_safe("x\ny", keep_newlines=True) == "x\ny"
    assert term_safe("ᓂᓂᐹᐣ ê-ayâyân") == "ᓂᓂᐹᐣ ê-ayâyân"


def test_cli_promote_says_why_each_skipped_text_was_left_out(ws, capsys):
    """`variants promote` said "skipped 2" without reasons for texts the corpus already has."""
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e3", adequacy=5, fluency=5))
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e2", adequacy=5))  # = reference
    J.add_reviewer(ws, Reviewer(reviewer_id="bo", name="Bo"))
    review.record_judgment(ws, Judgment(reviewer_id="bo", run_id="sys1", entry_id="e2", adequacy=5))
    assert main(["--db", str(ws.path), "variants", "promote", "sys1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "corpus c: version 1 -> 1+s1; added 1 variant, skipped 2"
    assert "  - 2 not added, already the reference or an accepted variant: e2" in out
