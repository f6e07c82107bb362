"""Run import warns about wrong-language outputs with the same judgment as code-switching."""

from __future__ import annotations

import json

from mteval_gui.app.imports import import_corpus_file, import_run_file

# Plains Cree verb forms: (source, reference, another valid form of the same verb)
CREE = [("I say so", "nititwân", "itwêwak"), ("as I am", "ê-ayâyân", "ê-ayât"),
        ("you leave", "kisipwêhtân", "sipwêhtêwak"), ("as you go", "ê-itohtêyan", "ê-itohtêyahk"),
        ("he/she arrives", "takohtêw", "takohtêwak"), ("as he/she enters", "ê-pîhtokêt", "ê-pîhtokêyâhk"),
        ("we go home", "nikîwânân", "nikîwân"), ("as we sleep", "ê-nipâyâhk", "ê-nipâyân"),
        ("we and you live", "kipimâtisinaw", "kipimâtisin"), ("as we and you are at home", "ê-apiyahk", "ê-apiyêk")]


def _write(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_valid_cree_is_not_taken_for_french_at_import(workspace, tmp_path):
    corpus = _write(tmp_path / "crk.jsonl", [{"id": f"v{i}", "source": s, "reference": r}
                                              for i, (s, r, _) in enumerate(CREE)])
    import_corpus_file(workspace, corpus, corpus_id="crk-verbs", source_lang="eng", target_lang="crk")
    person = _write(tmp_path / "person.jsonl", [{"id": f"v{i}", "predicted": o} for i, (_, _, o) in enumerate(CREE)])
    assert import_run_file(workspace, person, corpus_id="crk-verbs").warnings == []
    english = _write(tmp_path / "english.jsonl", [{"id": f"v{i}", "predicted": s} for i, (s, _, _) in enumerate(CREE)])
    assert import_run_file(workspace, english, corpus_id="crk-verbs").warnings == [
        "english.jsonl: 10 of 10 sampled outputs are wholly in another language than crk (eng (10)): "
        "is this the right corpus?"]
