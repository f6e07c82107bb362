"""``mteval models list|download``: the only command that fetches models, tested against a
local fake Hub on 127.0.0.1 (tests/cli/fake_hub.py); every other connection is refused.
Afterwards core.comet scores with the downloaded model in a separate, offline process.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mteval_gui.cli import main

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def hf_cache(monkeypatch, tmp_path):
    """An empty Hugging Face cache for this test; only loopback connections are allowed."""
    pytest.importorskip("huggingface_hub")
    import huggingface_hub.constants

    cache = tmp_path / "hf-cache"
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    real_connect = socket.socket.connect

    def loopback_only(sock, address):
        host = address[0] if isinstance(address, tuple) else address
        if not ipaddress.ip_address(host).is_loopback:
            raise AssertionError(f"network access attempted: {address}")
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", loopback_only)
    return cache


@pytest.fixture(scope="module")
def hub_repos(tmp_path_factory):
    """A tiny COMET model whose hparams.yaml names a Hub encoder id, as published models do."""
    pytest.importorskip("comet")
    import yaml

    from tests.scoring.tiny_comet import build_tiny_comet

    built = build_tiny_comet(tmp_path_factory.mktemp("hub-src"))
    hp = yaml.safe_load((built.folder / "hparams.yaml").read_text(encoding="utf-8"))
    hp["pretrained_model"] = "test-org/tiny-xlmr"
    (built.folder / "hparams.yaml").write_text(yaml.safe_dump(hp), encoding="utf-8")
    return {"test-org/tiny-comet": built.folder, "test-org/tiny-xlmr": built.encoder}


def test_list_without_downloads(capsys):
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert "  Unbabel/wmt22-comet-da\n    not downloaded: run `mteval models download Unbabel/wmt22-comet-da`\n" in out
    assert "  masakhane/africomet-mtl\n    not downloaded: run `mteval models download masakhane/africomet-mtl`\n" in out
    blocks = dict(re.findall(r"^  (\S+)\n((?:    .*\n)+)", out, flags=re.M))
    africomet, wmt22 = blocks["masakhane/africomet-mtl"], blocks["Unbabel/wmt22-comet-da"]
    covered = re.search(r"chosen by the cards of: ([a-z, ]+) \(covered\)", africomet).group(1).split(", ")
    not_covered = re.search(r"chosen by the cards of: ([a-z, ]+) \(NOT covered: scores flagged\)", wmt22)
    assert {"ewe", "sna"} <= set(covered)
    assert {"crk", "sme"} <= set(not_covered.group(1).split(", "))
    assert "Embedding model (semantic fallback)" in out


def test_download_fetches_model_and_encoder_tokenizer_then_scores_offline(hub_repos, hf_cache, capsys, tmp_path):
    from tests.cli.fake_hub import FakeHub

    with FakeHub(hub_repos) as hub:
        assert main(["models", "download", "test-org/tiny-comet", "--endpoint", hub.endpoint]) == 0
    out = capsys.readouterr().out
    assert "test-org/tiny-comet is ready: " in out
    fetched = sorted(re.sub(r"/resolve/[0-9a-f]{40}", "", r) for r in hub.requests
                     if r.startswith("GET") and "/resolve/" in r)
    assert fetched == [
        "GET /test-org/tiny-comet/checkpoints/model.ckpt",
        "GET /test-org/tiny-comet/hparams.yaml",
        "GET /test-org/tiny-xlmr/config.json",
        "GET /test-org/tiny-xlmr/special_tokens_map.json",
        "GET /test-org/tiny-xlmr/tokenizer.json",
        "GET /test-org/tiny-xlmr/tokenizer_config.json",
    ]
    assert main(["models", "list"]) == 0
    listed = capsys.readouterr().out
    assert "  test-org/tiny-comet\n    downloaded (revision " in listed
    assert "; encoder test-org/tiny-xlmr)" in listed

    # score in a fresh process, offline, from the cache only (the fake Hub is gone)
    code = textwrap.dedent("""
        import json, socket
        def refuse(*a, **k):
            raise AssertionError("network access attempted")
        socket.socket.connect = refuse
        from mteval_gui.domain.corpus import Entry
        from mteval_gui.domain.run import Output
        from mteval_gui.scoring.metrics.comet import CometMetric
        from mteval_gui.scoring.plugins import EntryInput, ScoringContext
        ctx = ScoringContext("eng", "xxx", options={"comet_model": "test-org/tiny-comet"})
        m = CometMetric(); m.prepare(ctx)
        items = [EntryInput(0, Entry(id="0", source="the cat", reference="the cat"), Output(id="0", predicted="the dog")),
                 EntryInput(1, Entry(id="1", source="the cat", reference="the cat"), Output(id="1", predicted=""))]
        scores = m.score_entries(items)
        corpus = m.aggregate(scores, ctx)
        print(json.dumps({"values": [s.value for s in scores], "model": corpus.values["comet_model"],
                          "revision": corpus.extra.get("revision")}))
    """)
    env = {**os.environ, "HF_HUB_CACHE": str(hf_cache), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["model"] == "test-org/tiny-comet"
    assert result["revision"] == hub.commit("test-org/tiny-comet")
    assert all(0.0 < v < 1.0 for v in result["values"])


def test_download_of_an_unknown_model_reports_it(hub_repos, capsys):
    from tests.cli.fake_hub import FakeHub

    with FakeHub(hub_repos) as hub:
        assert main(["models", "download", "test-org/nothing", "--endpoint", hub.endpoint]) == 1
    err = capsys.readouterr().err
    assert "mteval: error: download of test-org/nothing failed: RepositoryNotFoundError" in err
    assert err.rstrip().endswith("(check the model id)")


def test_download_refuses_local_paths(tmp_path, capsys):
    assert main(["models", "download", str(tmp_path)]) == 1
    assert f"{tmp_path} is a local path: it is used as it is, nothing to download" in capsys.readouterr().err
