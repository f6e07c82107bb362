"""Review packs: one self-contained offline HTML file; its answers merge losslessly or are refused with the reason."""

from __future__ import annotations

import json
import re

import pytest

from mteval_gui.app import judgment_files, review
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.cli import main
from mteval_gui.errors import InputError, MtevalError, StoreError
from mteval_gui.io.review_pack import content_sha256
from mteval_gui.store import judgments as J
from mteval_gui.store.packs import get_pack
from tests.app.pack_helpers import answer, answers_doc, make_workspace, pack_data


@pytest.fixture
def ws(tmp_path):
    w = make_workspace(tmp_path / "ws.sqlite")
    yield w
    w.close()


def write(tmp_path, doc, name="answers.json"):
    p = tmp_path / name
    p.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    return p


def test_pack_is_one_offline_file_with_data_code_and_fonts(ws, tmp_path):
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    text = done.path.read_text(encoding="utf-8")
    assert done.items == 5 and done.bytes == len(text.encode("utf-8"))
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', text).group(1)
    assert csp.startswith("default-src 'none'; script-src 'sha256-") and "font-src data:;" in csp
    assert "connect-src 'none'" in csp and "'unsafe-inline'" not in csp
    # no external address of any kind: no scheme but data: appears in the file
    assert re.findall(r"\b(?:https?|wss?|ftp)://", text) == []
    assert re.findall(r'\b(?:src|href)\s*=\s*"', text) == []
    assert text.count("<script") == 3  # the data block, the key map block and the one inline script
    data = pack_data(done.path)
    assert data["content_sha256"] == content_sha256(data) == done.content_sha256
    assert [it["entry_id"] for it in data["items"]] == ["d1-1", "d1-2", "d1-3", "d2-1", "x-1"]
    first = data["items"][0]
    assert first == {"entry_id": "d1-1", "source": "I say so", "output": "nititwân", "reference": "nititwân",
                     "reference_scripts": {"Latn": "nititwân", "Cans": "ᓂᑎᑤᐣ"},
                     "run_label": "system-one", "context": [
                         {"entry_id": "d1-2", "offset": 1, "source": "you leave", "reference": "kisipwêhtân"},
                         {"entry_id": "d1-3", "offset": 2, "source": "as I am", "reference": "ê-ayâyân"}],
                     "doc": 0}
    assert data["items"][3]["error"] == "HTTP 503" and "context" not in data["items"][3]  # alone in doc2
    assert "context" not in data["items"][4]
    assert {c["id"] for c in data["categories"]} >= {"mistranslation", "morphology"}
    assert data["language"] == {"source": "eng", "target": "crk", "target_name": "nêhiyawêwin"}
    # fonts: the Latin letters and the syllabics (the crk card's scripts), as embedded WOFF
    assert text.count("src: url(data:font/woff;base64,") == len(done.fonts) >= 2
    assert any(f["file"].startswith("NotoSansCanadianAboriginal") for f in done.fonts)
    assert done.missing_characters == []
    record = get_pack(ws, done.pack_id)
    assert record.items[0] == ("sys1", "d1-1", None) and record.content_sha256 == done.content_sha256


def test_blind_pack_names_no_run_and_shows_no_reference(ws, tmp_path):
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html", blind=True, entries=3, seed=7)
    text = done.path.read_text(encoding="utf-8")
    assert "sys1" not in text and "system-one" not in text
    data = pack_data(done.path)
    assert len(data["items"]) == 3 and data["blind"] is True
    assert all("reference" not in it and "run_label" not in it for it in data["items"])
    assert all("reference" not in c for it in data["items"] for c in it.get("context", []))


def test_export_errors(ws, tmp_path):
    with pytest.raises(StoreError, match="unknown reviewer 'zed'"):
        export_review_pack(ws, ["sys1"], "zed", tmp_path / "p.html")
    with pytest.raises(StoreError, match="unknown run 'nope'"):
        export_review_pack(ws, ["nope"], "ana", tmp_path / "p.html")
    with pytest.raises(MtevalError, match="no pair of these runs was called EQUIVALENT"):
        export_review_pack(ws, ["sys1"], "ana", tmp_path / "p.html", task="b")
    assert not (tmp_path / "p.html").exists()


def test_answers_merge_losslessly_and_reimport_changes_nothing(ws, tmp_path):
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    answers = [
        answer(1, 0, adequacy=5, fluency=5, payload={}, superseded_by=2),
        answer(2, 0, version=2, adequacy=4, fluency=5,
               payload={"spans": [{"start": 0, "end": 3, "severity": "minor", "category": "spelling"}],
                        "correction": "nititwân ôma"}),
        answer(3, 1, adequacy=2, fluency=3, note="wrong person", payload={
            "spans": [{"start": 0, "end": 13, "severity": "major", "category": "morphology"}]}),
        answer(4, 4, adequacy=3, undone=True),
    ]
    path = write(tmp_path, answers_doc(data, answers))
    summary = judgment_files.import_judgments_file(ws, path)
    assert summary["judgments_added"] == 4 and summary["pack_id"] == done.pack_id
    current = {j.entry_id: j for j in J.current_judgments(ws, reviewer_id="ana")}
    assert sorted(current) == ["d1-1", "d1-2"]
    assert current["d1-1"].version == 2 and current["d1-1"].payload["correction"] == "nititwân ôma"
    assert current["d1-2"].note == "wrong person"
    assert [j.version for j in J.judgment_history(ws, "ana", "sys1", "d1-1")] == [1, 2]
    assert review.esa_scores(ws, ["sys1"])["sys1"].penalty == 3.0  # (1 + 5) / 2
    again = judgment_files.import_judgments_file(ws, path)
    assert again["judgments_added"] == 0 and again["judgments_unchanged"] == 4
    # a second pack for the same reviewer carries that history and continues it
    second = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack2.html", entries=2)
    log = pack_data(second.path)["log"]
    assert [(r["item"], r["version"], r["superseded_by"]) for r in log] == [(0, 1, 2), (0, 2, None), (1, 1, None)]


def test_refused_files_say_why(ws, tmp_path):
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    answers = [answer(1, 0, adequacy=5, fluency=4)]
    doc = answers_doc(data, answers)

    def refused(d, name):
        p = write(tmp_path, d, name)
        with pytest.raises(InputError) as err:
            judgment_files.import_judgments_file(ws, p)
        return [str(x) for x in err.value.defects], p

    altered = json.loads(json.dumps(doc))
    altered["answers"][0]["adequacy"] = 1
    msgs, p = refused(altered, "altered.json")
    assert msgs == [f"{p}: the answers were changed after the pack exported them (their HMAC does not match "
                    "answers_hmac): export them again from the pack"]
    other = export_review_pack(ws, ["sys1"], "ana", tmp_path / "other.html")
    swapped = {**doc, "pack_id": other.pack_id}
    msgs, p = refused(swapped, "swapped.json")
    assert msgs == [f"{p}: these answers are for another pack: their pack hash {done.content_sha256[:12]}… is not "
                    f"the hash of pack {other.pack_id} ({other.content_sha256[:12]}…)"]
    msgs, p = refused({**doc, "pack_id": "rp-000000000000"}, "unknown.json")
    assert msgs == [f"{p}: review pack rp-000000000000 was not exported from this workspace: import its answers into "
                    "the workspace that made the pack"]
    bad_item = answers_doc(data, [answer(1, 99, adequacy=5)])
    msgs, p = refused(bad_item, "item.json")
    assert msgs == [f"{p}:9: item 99 is not in pack {done.pack_id} (it has 5 items)"]
    assert J.current_judgments(ws) == []


def test_cli_export_and_import(ws, tmp_path, capsys):
    out = tmp_path / "p.html"
    assert main(["--db", str(ws.path), "review-pack", "export", "sys1", "--reviewer", "ana", "--entries", "2",
                 "--lang", "fr", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    data = pack_data(out)
    assert f"wrote review pack {data['pack_id']} to {out}: 2 items" in printed
    assert data["ui_lang"] == "fr"
    path = write(tmp_path, answers_doc(data, [answer(1, 1, adequacy=1, fluency=2)]))
    assert main(["--db", str(ws.path), "judgments", "import", str(path)]) == 0
    assert "imported 1 judgments" in capsys.readouterr().out
    assert main(["--db", str(ws.path), "review-pack", "export", "sys1", "--reviewer", "ana", "--task", "c",
                 "-o", str(tmp_path / "c.html")]) == 1
    assert "the analyzer rejected no word" in capsys.readouterr().err


def test_answers_edited_and_rehashed_are_refused(ws, tmp_path):
    """The answers carried a plain sha256: whoever edited the file recomputed it and the edit was
    accepted. The pack now signs them with its own key (kept by the workspace)."""
    import hashlib

    from mteval_gui.io.review_pack import answers_hmac, canonical_json

    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    key = get_pack(ws, done.pack_id).answers_key
    assert key == data["answers_key"] and re.fullmatch(r"[0-9a-f]{64}", key)
    doc = answers_doc(data, [answer(1, 0, adequacy=5, fluency=4)])
    edited = json.loads(json.dumps(doc))
    edited["answers"][0]["adequacy"] = 1
    del edited["answers_hmac"]
    edited["answers_sha256"] = hashlib.sha256(canonical_json(edited["answers"]).encode("utf-8")).hexdigest()
    p = write(tmp_path, edited, "rehashed.json")
    with pytest.raises(InputError) as err:
        judgment_files.import_judgments_file(ws, p)
    assert [str(d) for d in err.value.defects] == [
        f"{p}: the answers carry no answers_hmac, only a plain answers_sha256 that anyone editing the file can "
        "recompute; this pack signs its answers with its own key: export them again from the pack"]
    # re-signed with a key that is not the pack's
    edited = {**{k: v for k, v in edited.items() if k != "answers_sha256"},
              "answers_hmac": answers_hmac("00" * 32, edited["answers"])}
    p = write(tmp_path, edited, "resigned.json")
    with pytest.raises(InputError) as err:
        judgment_files.import_judgments_file(ws, p)
    assert [str(d) for d in err.value.defects] == [
        f"{p}: the answers were changed after the pack exported them (their HMAC does not match answers_hmac): "
        "export them again from the pack"]
    assert J.current_judgments(ws) == []
    assert judgment_files.import_judgments_file(ws, write(tmp_path, doc))["judgments_added"] == 1


def test_packs_made_before_answer_keys_import_with_their_sha256(ws, tmp_path):
    """A pack recorded without a key (made before keys existed) keeps its plain sha256 check."""
    from mteval_gui.io.review_pack import canonical_json, sha256_text

    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    with ws.transaction() as c:
        c.execute("UPDATE review_packs SET answers_key = NULL WHERE pack_id = ?", (done.pack_id,))
    answers = [answer(1, 0, adequacy=5, fluency=4)]
    doc = {**{k: v for k, v in answers_doc(data, answers).items() if k != "answers_hmac"},
           "answers_sha256": sha256_text(canonical_json(answers))}
    bad = json.loads(json.dumps(doc))
    bad["answers"][0]["adequacy"] = 2
    p = write(tmp_path, bad, "bad.json")
    with pytest.raises(InputError) as err:
        judgment_files.import_judgments_file(ws, p)
    assert [str(d) for d in err.value.defects] == [
        f"{p}: the answers were changed after the pack exported them (their sha256 does not match answers_sha256): "
        "export them again from the pack"]
    assert judgment_files.import_judgments_file(ws, write(tmp_path, doc))["judgments_added"] == 1


def test_answer_fields_beyond_64_bits_or_text_booleans_are_refused(ws, tmp_path, capsys):
    """A version of 2**63 ended in a traceback (SQLite integer overflow); "false" and "no" were
    stored as flagged = true."""
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    answers = [answer(1, 0, version=2**63, adequacy=5), answer(2, 1, adequacy=3, flagged="false"),
               answer(3, 2, adequacy=3, undone="no"), answer(4, 3, adequacy=3, flagged=0),
               answer(5, 4, adequacy=2, superseded_by=-1), answer(2**64, 4, adequacy=2)]
    p = write(tmp_path, answers_doc(data, answers))
    assert main(["--db", str(ws.path), "judgments", "import", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"{p}:9: version 9223372036854775808 is not a whole number from 1 to 9223372036854775807",
        f"{p}:22: flagged must be true or false (a JSON boolean), not \"false\"",
        f"{p}:35: undone must be true or false (a JSON boolean), not \"no\"",
        f"{p}:48: flagged must be true or false (a JSON boolean), not 0",
        f"{p}:61: superseded_by -1 is not a whole number or null from 1 to 9223372036854775807",
        f"{p}:74: id 18446744073709551616 is not a whole number from 1 to 9223372036854775807",
        "mteval: 6 problems found; nothing was written"]
    assert J.current_judgments(ws) == []
    # real booleans are taken as they are
    ok = [answer(1, 0, adequacy=5, flagged=False), answer(2, 1, adequacy=3, flagged=True)]
    judgment_files.import_judgments_file(ws, write(tmp_path, answers_doc(data, ok), "ok.json"))
    assert {j.entry_id: j.flagged for j in J.current_judgments(ws)} == {"d1-1": False, "d1-2": True}


def test_pack_answers_with_an_unfit_correction_are_refused(ws, tmp_path):
    """A zero-width correction from a pack became a candidate variant."""
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    answers = [answer(1, 0, adequacy=2, payload={"correction": "\u200b\u200c"}),
               answer(2, 1, adequacy=2, payload={"correction": "y" * 10_001})]
    p = write(tmp_path, answers_doc(data, answers))
    with pytest.raises(InputError) as err:
        judgment_files.import_judgments_file(ws, p)
    assert [str(d) for d in err.value.defects] == [
        f"{p}:9: correction has no visible character (only spaces, zero-width or format characters)",
        f"{p}:24: correction is 10,001 characters long (at most 10,000)"]
    assert J.current_judgments(ws) == []
