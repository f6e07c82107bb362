"""COMET models in the settings dialog: list with status, download only after confirmation.

The download function is always replaced here: tests never use the network.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mteval_gui.app import models as modelhub
from mteval_gui.app.models import cached_bytes
from mteval_gui.errors import MtevalError
from mteval_gui.qt import comet_models
from mteval_gui.qt.comet_models import CometModelsPanel, model_state
from mteval_gui.qt.settings_dialog import SettingsDialog

MODELS = {"Unbabel/wmt22-comet-da": [("fra", True), ("crk", False)], "masakhane/africomet-mtl": [("ewe", True)]}
STATUS = {
    "Unbabel/wmt22-comet-da": "downloaded (revision 371e9839ca48, 2.3 GB; encoder xlm-roberta-large)",
    "masakhane/africomet-mtl": "not downloaded: run `mteval models download masakhane/africomet-mtl`",
}


@pytest.fixture
def hub(monkeypatch):
    """Known models and statuses fixed; the download recorded instead of performed."""
    calls: list[str] = []
    state = {"fail": None}

    def fake_download(name, *, endpoint=None, echo=print, cancel=None, on_progress=None):
        calls.append(name)
        echo(f"downloading {name} ...")
        if state["fail"]:
            raise state["fail"]
        STATUS[name] = "downloaded (revision abc, 2.2 GB; encoder Davlan/afro-xlmr-large)"
        return Path("/models") / name / "checkpoints" / "model.ckpt"

    monkeypatch.setattr(modelhub, "known_comet_models", lambda: {k: list(v) for k, v in MODELS.items()})
    monkeypatch.setattr(modelhub, "comet_model_status", lambda name: STATUS[name])
    monkeypatch.setattr(modelhub, "download_comet_model", fake_download)
    monkeypatch.setitem(STATUS, "masakhane/africomet-mtl", STATUS["masakhane/africomet-mtl"])
    return calls, state


def test_model_state_from_status_lines():
    assert model_state(STATUS["Unbabel/wmt22-comet-da"]) == "downloaded"
    assert model_state(STATUS["masakhane/africomet-mtl"]) == "missing"
    assert (
        model_state("downloaded (2.3 GB) but the tokenizer of its encoder xlm-roberta-large is missing: run ...")
        == "incomplete"
    )


def test_cached_bytes_counts_the_model_blobs(tmp_path):
    blobs = tmp_path / "models--Unbabel--wmt22-comet-da" / "blobs"
    blobs.mkdir(parents=True)
    (blobs / "a").write_bytes(b"x" * 1000)
    (blobs / "b.incomplete").write_bytes(b"x" * 500)
    assert cached_bytes("Unbabel/wmt22-comet-da", tmp_path) == 1500
    assert cached_bytes("masakhane/africomet-mtl", tmp_path) == 0
    assert cached_bytes("x/y", None) == 0


def test_settings_list_models_with_status_and_use_one(qtbot, small_ws, hub):
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    panel = dlg.comet_models
    assert panel.names() == ["Unbabel/wmt22-comet-da", "masakhane/africomet-mtl"]
    assert [panel.table.item(r, c).text() for r in range(2) for c in (1, 2)] == [
        "fra; not covered: crk", "downloaded", "ewe", "not downloaded"]
    assert panel.table.item(1, 2).toolTip() == STATUS["masakhane/africomet-mtl"]
    assert not panel.download_button.isEnabled()  # nothing selected
    panel.select("masakhane/africomet-mtl")
    panel.use_button.click()
    assert dlg.comet_edit.text() == "masakhane/africomet-mtl"


def test_download_only_after_confirmation(qtbot, small_ws, hub, monkeypatch):
    calls, _ = hub
    asked: list[str] = []
    answer = {"yes": False}

    def fake_confirm(parent, title, question):
        asked.append(question)
        return answer["yes"]

    monkeypatch.setattr(comet_models, "confirm", fake_confirm)
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    panel = dlg.comet_models
    panel.select("masakhane/africomet-mtl")
    panel.download_button.click()
    assert calls == [] and len(asked) == 1
    assert "uses the network" in asked[0] and "2.3 GB" in asked[0] and "masakhane/africomet-mtl" in asked[0]
    assert panel.status.text() == "Download of masakhane/africomet-mtl not started."

    answer["yes"] = True
    with qtbot.waitSignal(panel.download_finished, timeout=10000) as finished:
        panel.download_button.click()
        assert not panel.download_button.isEnabled()  # one download at a time
    assert calls == ["masakhane/africomet-mtl"] and len(asked) == 2
    assert finished.args[0].status == "done"
    assert panel.status.text() == "masakhane/africomet-mtl is ready: scoring finds it offline."
    assert panel.state_of("masakhane/africomet-mtl") == "downloaded"  # list reloaded
    qtbot.waitUntil(lambda: panel.jobs.active == 0)


def test_download_error_goes_through_the_error_dialog(qtbot, small_ws, hub, monkeypatch):
    calls, state = hub
    state["fail"] = MtevalError("download of masakhane/africomet-mtl failed: ConnectionError: no route to host")
    shown: list[BaseException] = []
    monkeypatch.setattr(comet_models, "confirm", lambda *a: True)
    monkeypatch.setattr(comet_models, "show_error", lambda parent, exc: shown.append(exc))
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    panel = dlg.comet_models
    panel.select("masakhane/africomet-mtl")
    with qtbot.waitSignal(panel.download_finished, timeout=10000):
        panel.download_selected()
    qtbot.waitUntil(lambda: len(shown) == 1)
    assert shown[0] is state["fail"] and calls == ["masakhane/africomet-mtl"]
    assert panel.status.text() == "Download of masakhane/africomet-mtl failed."
    assert panel.state_of("masakhane/africomet-mtl") == "missing"
    qtbot.waitUntil(lambda: panel.jobs.active == 0)


def test_dialog_stays_open_while_downloading(qtbot, small_ws, hub, monkeypatch):
    import threading

    calls, _ = hub
    release = threading.Event()
    original = modelhub.download_comet_model

    def slow(name, *, endpoint=None, echo=print, cancel=None, on_progress=None):
        release.wait(10)
        return original(name, endpoint=endpoint, echo=echo)

    monkeypatch.setattr(modelhub, "download_comet_model", slow)
    monkeypatch.setattr(comet_models, "confirm", lambda *a: True)
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.comet_models.select("masakhane/africomet-mtl")
    dlg.comet_models.download_selected()
    assert dlg.comet_models.busy()
    dlg.reject()
    assert dlg.isVisible()
    assert "still running" in dlg.comet_models.status.text()
    with qtbot.waitSignal(dlg.comet_models.download_finished, timeout=10000):
        release.set()
    qtbot.waitUntil(lambda: dlg.comet_models.jobs.active == 0)
    dlg.reject()
    assert not dlg.isVisible()
    assert calls == ["masakhane/africomet-mtl"]


def test_panel_without_models_is_empty(qtbot, monkeypatch):
    monkeypatch.setattr(modelhub, "known_comet_models", lambda: {})
    panel = CometModelsPanel()
    qtbot.addWidget(panel)
    assert panel.names() == [] and not panel.download_button.isEnabled()


def test_a_running_download_can_be_cancelled(qtbot, small_ws, hub, monkeypatch):
    import threading

    from mteval_gui.errors import Cancelled

    started = threading.Event()

    def endless(name, *, endpoint=None, echo=print, cancel=None, on_progress=None):
        started.set()
        while not cancel.cancelled:  # what the child-process download does between polls
            threading.Event().wait(0.01)
        raise Cancelled("download cancelled")

    monkeypatch.setattr(modelhub, "download_comet_model", endless)
    panel = CometModelsPanel()
    qtbot.addWidget(panel)
    panel.select("masakhane/africomet-mtl")
    assert not panel.cancel_button.isEnabled()
    panel.start_download("masakhane/africomet-mtl")
    assert panel.cancel_button.isEnabled()
    assert started.wait(5)
    with qtbot.waitSignal(panel.download_finished, timeout=10000) as blocker:
        panel.cancel_download()
    assert blocker.args[0].status == "cancelled"
    assert "cancelled" in panel.status.text() and not panel.busy()
    qtbot.waitUntil(lambda: panel.jobs.active == 0)
