"""A third-party plugin's message catalog: found through its declaration, used for its details."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import messages
from mteval_gui.standards import discover_plugins
from tests.test_plugins import _ep, _module


@pytest.fixture
def kal_plugin(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    _module(tmp_path, "kal_msgs.plugin", 'PLUGIN = {"name": "kal_msgs", "packages": ["kal_msgs"], '
                                         '"messages": "messages"}\n')
    (tmp_path / "kal_msgs" / "messages").mkdir()
    (tmp_path / "kal_msgs" / "messages" / "fr.json").write_text(json.dumps(
        {"{n} words too many": "{n} mots de trop"}), encoding="utf-8")
    _module(tmp_path, "bad_msgs.plugin", 'PLUGIN = {"name": "bad_msgs", "packages": ["bad_msgs"], '
                                         '"messages": "nowhere"}\n')
    plugins = discover_plugins((_ep(n, f"{n}.plugin:PLUGIN"), None, None, False) for n in ("kal_msgs", "bad_msgs"))
    monkeypatch.setattr(messages, "installed_plugins", lambda: plugins)
    messages.clear_catalogs()
    yield plugins
    messages.clear_catalogs()


def test_a_plugins_catalog_translates_its_details(kal_plugin, tmp_path):
    assert kal_plugin.get("kal_msgs").messages_dir == tmp_path / "kal_msgs" / "messages"  # type: ignore[union-attr]
    assert [str(p) for p in kal_plugin.problems] == [
        "plugin bad_msgs: messages: folder 'nowhere' not found; its translations are not used"]
    detail = {"explanation": "2 words too many", "explanation_msg": {"template": "{n} words too many",
                                                                     "args": {"n": 2}}}
    assert messages.detail_text(detail, "explanation", "fr") == "2 mots de trop"
    assert messages.detail_text(detail, "explanation", "fr_CA") == "2 mots de trop"
    assert messages.detail_text(detail, "explanation", "en") == "2 words too many"
    assert messages.detail_text(detail, "explanation", "de") == "2 words too many"
    other = {"explanation": "3 letters", "explanation_msg": {"template": "{n} letters", "args": {"n": 3}}}
    assert messages.detail_text(other, "explanation", "fr") == "3 letters"  # not in the catalog: English
