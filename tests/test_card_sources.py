"""Cards from the user cards folder, ``mteval cards add``, and codes that must never reach a file path.

The hostile cases reproduce a corpus whose target language is ``"../../…/evil/zzq"``: before
codes were checked, scoring loaded ``evil/zzq.json`` from wherever that pointed and imported
every module the card named (the standard library's ``this`` printed its text; run as
``python -m mteval_gui``, a ``.py`` file next to the data ran).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui import cards
from mteval_gui.cli import main
from mteval_gui.domain.plugin import StandardsPlugin
from mteval_gui.errors import CardError
from mteval_gui.paths import language_cards_dir, user_cards_dir
from mteval_gui.standards import InstalledPlugin, Plugins, installed_plugins

REPO = Path(__file__).resolve().parent.parent
ZEN = "Beautiful is better than ugly"

EVIL_MODULE = """\
from pathlib import Path
Path(__file__).with_name("evil_ran.txt").write_text("ran", encoding="utf-8")
from mteval_gui.scoring.plugins import BaseMetric, MetricInfo
class EvilMetric(BaseMetric):
    info = MetricInfo(id="zzq.evil", version="1", display_name="evil", scale="0-1")
"""


def _card(code: str, **extra) -> dict:
    return {"code": code, "name": f"Test {code}", **extra}


def _write(path: Path, obj) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def _toy_files(folder: Path, *, reference: str = "kala nuna", predicted: str = "qala nuna") -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps({"id": f"e{i}", "source": f"the dog {i}", "reference": reference})
                                for i in range(3)) + "\n", encoding="utf-8")
    run = folder / "run.jsonl"
    run.write_text("\n".join(json.dumps({"id": f"e{i}", "predicted": predicted if i else reference})
                             for i in range(3)) + "\n", encoding="utf-8")
    return corpus, run


def _subprocess_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(REPO), MTEVAL_HOME=str(home), HF_HUB_OFFLINE="1")
    env.pop("MTEVAL_CARDS_DIR", None)
    return env


# ------------------------------------------------------------------------------ codes


@pytest.mark.parametrize("code", ["../../evil/zzq", "/tmp/zzq", "fr", "FRA", "zz q", "", "crk.json", "ab\x00c", 3])
def test_a_code_that_is_not_iso_639_3_never_names_a_file(code):
    with pytest.raises(CardError) as err:
        cards.card_info(code)
    assert "is not an ISO 639-3 code (three lower-case letters" in str(err.value)
    assert cards.try_load_card(code) is None


def test_hostile_target_code_loads_no_card_and_imports_nothing(tmp_path):
    """A corpus target ``../../…/evil/zzq`` whose card names ``this`` and a ``.py`` next to the data."""
    data = tmp_path / "data"
    corpus, run = _toy_files(data)
    (data / "evil_metric.py").write_text(EVIL_MODULE, encoding="utf-8")
    _write(tmp_path / "evil" / "zzq.json", _card("zzq", evalMetrics=[
        {"id": "zzq.zen", "python_name": "this:Zen"},
        {"id": "zzq.evil", "python_name": "evil_metric:EvilMetric"},
    ]))
    code = os.path.relpath(tmp_path / "evil" / "zzq", language_cards_dir())
    assert code.startswith("..")
    out = subprocess.run([sys.executable, "-m", "mteval_gui", "evaluate", "--corpus", str(corpus), "--run", str(run),
                          "--source-lang", "eng", "--lang", code, "-o", str(tmp_path / "card.json")],
                         cwd=data, env=_subprocess_env(tmp_path / "home"), capture_output=True, text=True, timeout=300)
    assert ZEN not in out.stdout and ZEN not in out.stderr
    assert not (data / "evil_ran.txt").exists()
    assert out.returncode != 0
    assert "is not an ISO 639-3 code" in out.stderr
    assert not (tmp_path / "card.json").exists()


def test_a_user_card_naming_a_module_outside_the_plugins_is_refused_and_nothing_runs(tmp_path):
    home = tmp_path / "home"
    data = tmp_path / "data"
    corpus, run = _toy_files(data)
    (data / "evil_metric.py").write_text(EVIL_MODULE, encoding="utf-8")
    card = _write(home / "language_cards" / "zzq.json", _card("zzq", evalMetrics=[
        {"id": "zzq.zen", "python_name": "this:Zen"},
        {"id": "zzq.evil", "python_name": "evil_metric:EvilMetric"},
    ]))
    env = _subprocess_env(home)
    val = subprocess.run([sys.executable, "-m", "mteval_gui", "cards", "validate"], cwd=data, env=env,
                         capture_output=True, text=True, timeout=120)
    assert val.returncode == 1
    lines = val.stderr.splitlines()
    assert (f"{card}: evalMetrics[0].python_name: module 'this' is not part of an installed plugin package "
            "(allowed: mteval_gui.scoring.metrics, eval_standards); install the plugin that provides it") in lines
    assert any(line.startswith(f"{card}: evalMetrics[1].python_name: module 'evil_metric' is not part of")
               for line in lines)
    ev = subprocess.run([sys.executable, "-m", "mteval_gui", "evaluate", "--corpus", str(corpus), "--run", str(run),
                         "--source-lang", "eng", "--lang", "zzq", "-o", str(tmp_path / "card.json")],
                        cwd=data, env=env, capture_output=True, text=True, timeout=300)
    assert ZEN not in ev.stdout and ZEN not in ev.stderr
    assert not (data / "evil_ran.txt").exists()
    assert ev.returncode == 1
    assert f"{card}: evalMetrics[0].python_name: module 'this' is not part of" in ev.stderr
    assert not (tmp_path / "card.json").exists()


def test_card_refusal_names_file_and_field_in_process(tmp_path, monkeypatch):
    path = _write(user_cards_dir() / "zzq.json", _card("zzq", evalMetrics=[
        {"id": "zzq.ok", "python_name": "eval_standards.crk.linter:CrkLinterMetric"},
        {"id": "zzq.store", "python_name": "mteval_gui.store.db:Workspace"},
        {"id": "zzq.near", "python_name": "eval_standardsx.mod:Metric"},
        {"id": "zzq.rel", "python_name": ".linter:Metric"},
    ]))
    info = cards.card_info("zzq")
    assert info.source is not None and info.source.kind == "user"
    assert info.problems == (
        "evalMetrics[1].python_name: module 'mteval_gui.store.db' is not part of an installed plugin package "
        "(allowed: mteval_gui.scoring.metrics, eval_standards); install the plugin that provides it",
        "evalMetrics[2].python_name: module 'eval_standardsx.mod' is not part of an installed plugin package "
        "(allowed: mteval_gui.scoring.metrics, eval_standards); install the plugin that provides it",
        "evalMetrics[3].python_name: '.linter:Metric' must look like 'package.module:ClassName'",
    )
    with pytest.raises(CardError) as err:
        cards.load_card("zzq")
    assert str(err.value).startswith(f"{path}: evalMetrics[1].python_name: module 'mteval_gui.store.db'")


def test_card_files_are_read_as_strict_json(tmp_path, monkeypatch):
    monkeypatch.setenv(cards.CARDS_DIR_ENV, str(tmp_path))
    (tmp_path / "dup.json").write_text('{"code": "dup", "name": "A", "name": "B"}', encoding="utf-8")
    (tmp_path / "nan.json").write_text('{"code": "nan", "name": "N", "notes": NaN}', encoding="utf-8")
    (tmp_path / "big.json").write_bytes(b" " * (cards.MAX_CARD_BYTES + 1))
    assert cards.validate_all() == [
        "big.json: cannot read: larger than 1,000,000 bytes; not a language card",
        "dup.json: invalid JSON: duplicate key 'name'",
        "nan.json: invalid JSON: NaN is not a JSON number",
    ]


# ------------------------------------------------------------------------ user cards


def test_user_card_is_listed_validated_and_replaces_the_bundled_one(capsys):
    eng = json.loads((language_cards_dir() / "eng.json").read_text(encoding="utf-8"))
    eng["name"] = "English (mine)"
    user_eng = _write(user_cards_dir() / "eng.json", eng)
    user_new = _write(user_cards_dir() / "kal.json", _card("kal", orthography={"folds": {"q": "k"}}))
    assert main(["cards", "validate"]) == 0
    out = capsys.readouterr().out
    assert f"note: user card {user_eng} replaces the bundled card eng.json" in out
    assert f"10 cards valid in user {user_cards_dir()}, bundled {language_cards_dir()}" in out
    assert cards.load_card("eng").name == "English (mine)"
    assert cards.card_info("kal").path == user_new
    assert "kal" in cards.card_codes()
    assert main(["cards", "list"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert any(r.startswith("kal   Test kal") and " user " in r for r in rows)
    assert any(r.split()[:3] == ["eng", "English", "bundled"] and "(not used)" in r for r in rows)


def test_evaluate_uses_a_card_from_the_user_cards_folder(tmp_path, capsys):
    corpus, run = _toy_files(tmp_path / "files")
    out = tmp_path / "card.json"
    argv = ["evaluate", "--corpus", str(corpus), "--run", str(run), "--source-lang", "eng", "--lang", "kal",
            "--metrics", "core.exact", "core.equivalent", "--bootstrap", "10", "-o", str(out)]
    assert main(argv) == 0
    without = json.loads(out.read_text(encoding="utf-8"))
    assert without["scores"]["equivalent_matches"] == 1 and without["language_card_sha256"] is None
    card = _write(user_cards_dir() / "kal.json", _card("kal", orthography={"folds": {"q": "k"}}))
    assert main(argv) == 0
    capsys.readouterr()
    with_card = json.loads(out.read_text(encoding="utf-8"))
    assert with_card["language_card_sha256"] == hashlib.sha256(card.read_bytes()).hexdigest()
    assert with_card["scores"]["exact_matches"] == 1
    assert with_card["scores"]["equivalent_matches"] == 3  # "qala" folds to the reference's "kala"


def test_cards_add_checks_copies_and_refuses_to_override_without_replace(tmp_path, capsys):
    src = _write(tmp_path / "my-kalaallisut.json", _card("kal"))
    assert main(["cards", "add", str(src)]) == 0
    target = user_cards_dir() / "kal.json"
    assert capsys.readouterr().out.strip() == f"added Test kal (kal) as {target}"
    assert target.read_bytes() == src.read_bytes()
    # a second copy of the same code needs --replace
    assert main(["cards", "add", str(src)]) == 1
    err = capsys.readouterr().err
    assert f"a user card for 'kal' exists ({target}); give --replace" in err
    # overriding a bundled card needs --replace
    fra = _write(tmp_path / "fra.json", _card("fra"))
    assert main(["cards", "add", str(fra)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{fra}: a bundled card for 'fra' exists ({language_cards_dir() / 'fra.json'}); give --replace to "
                   "use this card instead", "mteval: the card was not added; nothing was written"]
    assert not (user_cards_dir() / "fra.json").exists()
    assert main(["cards", "add", str(fra), "--replace"]) == 0
    assert f"it replaces the bundled card {language_cards_dir() / 'fra.json'}" in capsys.readouterr().out
    assert cards.load_card("fra").name == "Test fra"


def test_cards_add_refuses_a_broken_card_with_file_and_field(tmp_path, capsys):
    bad = _write(tmp_path / "zzq.json", _card("zzq", scripts=["latin"],
                                              evalMetrics=[{"id": "zzq.zen", "python_name": "this:Zen"}]))
    assert main(["cards", "add", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{bad}: scripts: 'latin' is not an ISO 15924 code like 'Latn'",
        f"{bad}: evalMetrics[0].python_name: module 'this' is not part of an installed plugin package "
        "(allowed: mteval_gui.scoring.metrics, eval_standards); install the plugin that provides it",
        "mteval: the card was not added; nothing was written",
    ]
    assert not user_cards_dir().exists() or not any(user_cards_dir().iterdir())
    weird = _write(tmp_path / "x.json", _card("../x"))
    assert main(["cards", "add", str(weird)]) == 1
    assert "language code '../x' is not an ISO 639-3 code" in capsys.readouterr().err


# ------------------------------------------------------------------------ plugin cards


def _plugin_with_cards(tmp_path: Path, name: str, codes: list[str]) -> InstalledPlugin:
    folder = tmp_path / name / "cards"
    for code in codes:
        _write(folder / f"{code}.json", _card(code))
    decl = StandardsPlugin(name=name, packages=[name], cards="cards")
    return InstalledPlugin(name=name, declaration=decl, entry_point=f"{name}.plugin:PLUGIN", distribution=name,
                           version="1", cards_dir=folder)


def test_plugin_cards_add_languages_but_never_replace_bundled_or_other_plugins(tmp_path):
    base = installed_plugins()
    a = _plugin_with_cards(tmp_path, "alpha_std", ["xab", "crk"])
    b = _plugin_with_cards(tmp_path, "beta_std", ["xab", "xbc"])
    plugins = Plugins(plugins=(*base.plugins, a, b))
    report = cards.card_report(plugins=plugins)
    assert report.used["xab"].path == a.cards_dir / "xab.json"
    assert report.used["xbc"].source is not None and report.used["xbc"].source.label == "plugin beta_std"
    assert report.used["crk"].source is not None and report.used["crk"].source.kind == "bundled"
    assert report.problems == [
        f"{a.cards_dir / 'crk.json'}: the bundled card crk.json has the same code; this plugin card is not used",
        f"{b.cards_dir / 'xab.json'}: the plugin alpha_std card {a.cards_dir / 'xab.json'} has the same code; "
        "this plugin card is not used",
    ]


def test_a_user_card_replacing_a_bundled_one_is_what_the_standard_reads():
    """The application looks the card up and hands it over when the suite or a metric prepares."""
    from eval_standards.ewe.orthography import fold_key
    from eval_standards.ewe.quality import EweQualityMetric
    from mteval_gui.app.bench import open_suite
    from mteval_gui.scoring.plugins import ScoringContext

    card = json.loads((language_cards_dir() / "ewe.json").read_text(encoding="utf-8"))
    card["orthography"]["folds"]["q"] = "ɣ"
    assert fold_key("Q") == "q"
    _write(user_cards_dir() / "ewe.json", card)
    assert cards.card_stamp("ewe")[0] == str(user_cards_dir())
    resources = open_suite("ewebench").prepare()
    assert resources.folds["q"] == "ɣ" and fold_key("Q") == "ɣ"
    (user_cards_dir() / "ewe.json").unlink()
    open_suite("ewebench").prepare()
    assert fold_key("Q") == "q"
    _write(user_cards_dir() / "ewe.json", card)
    metric = EweQualityMetric()
    metric.prepare(ScoringContext("fra", "ewe", target_card=cards.load_card("ewe")))
    assert fold_key("Q") == "ɣ"
    metric.prepare(ScoringContext("fra", "ewe"))  # no card handed over: the bundled one
    assert fold_key("Q") == "q"
