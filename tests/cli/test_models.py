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
    assert (
        "  masakhane/africomet-mtl\n    not downloaded: run `mteval models download masakhane/africomet-mtl`\n" in out
    )
    blocks = dict(re.findall(r"^  (\S+)\n((?:    .*\n)+)", out, flags=re.M))
    africomet, wmt22 = blocks["masakhane/africomet-mtl"], blocks["Unbabel/wmt22-comet-da"]
    covered = re.search(r"chosen by the cards of: ([a-z, ]+) \(covered\)", africomet).group(1).split(", ")
    not_covered = re.search(r"chosen by the cards of: ([a-z, ]+) \(NOT covered: scores flagged\)", wmt22)
    assert {"ewe", "sna"} <= set(covered)
    assert {"crk", "sme"} <= set(not_covered.group(1).split(", "))
    assert "Embedding model (semantic fallback)" in out


@pytest.mark.slow
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
        items = [EntryInput(0, Entry(id="0", source="the cat", reference="the cat"),
                            Output(id="0", predicted="the dog")),
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


def _cli(
    args: list[str], cache: Path, cwd: Path, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``mteval`` in a fresh interpreter: nothing imported beforehand (import order cannot hide a crash)."""
    env = {**os.environ, "HF_HUB_CACHE": str(cache), "PYTHONPATH": str(REPO), **(extra_env or {})}
    env.pop("HF_HUB_OFFLINE", None)
    return subprocess.run([sys.executable, "-m", "mteval_gui", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


@pytest.mark.slow
def test_download_in_a_fresh_process_works(hub_repos, tmp_path):
    from tests.cli.fake_hub import FakeHub

    cache = tmp_path / "fresh-cache"
    with FakeHub(hub_repos) as hub:
        proc = _cli(["models", "download", "test-org/tiny-comet", "--endpoint", hub.endpoint], cache, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert "test-org/tiny-comet is ready: " in proc.stdout
    assert "verifying" in proc.stdout


def test_download_without_a_network_is_one_line(tmp_path):
    pytest.importorskip("huggingface_hub")
    with socket.socket() as s:  # a port nothing listens on: connections are refused, as offline
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = _cli(["models", "download", "Unbabel/wmt22-comet-da", "--endpoint", f"http://127.0.0.1:{port}"],
                tmp_path / "cache", tmp_path, {"HF_HUB_ETAG_TIMEOUT": "2", "HF_HUB_DOWNLOAD_TIMEOUT": "2"})
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(
        f"mteval: error: cannot reach http://127.0.0.1:{port} to download Unbabel/wmt22-comet-da"
    )
    assert lines[0].endswith("run `mteval models add FOLDER`")


def test_download_is_cancelled_at_once_then_resumes_and_is_verified(hub_repos, hf_cache):
    import threading

    from mteval_gui.app.models import cached_bytes, download_comet_model, verify_snapshot
    from mteval_gui.app.scoring import CancelToken
    from mteval_gui.errors import Cancelled
    from tests.cli.fake_hub import FakeHub

    token = CancelToken()
    size = (hub_repos["test-org/tiny-comet"] / "checkpoints" / "model.ckpt").stat().st_size
    small = (hub_repos["test-org/tiny-comet"] / "hparams.yaml").stat().st_size

    def progress(p):
        if p.done > small:  # the checkpoint has started arriving
            token.cancel()

    with FakeHub(hub_repos, slow=0.1) as hub:
        t = threading.Timer(120, token.cancel)  # a safety net; the first bytes cancel long before
        t.start()
        try:
            with pytest.raises(Cancelled, match="the next download resumes"):
                download_comet_model("test-org/tiny-comet", endpoint=hub.endpoint, on_progress=progress,
                                     cancel=token, echo=lambda m: None)
        finally:
            t.cancel()
    partial = cached_bytes("test-org/tiny-comet", hf_cache)
    assert 0 < partial < size  # stopped part-way, the partial file kept
    with FakeHub(hub_repos) as hub:
        ckpt = download_comet_model("test-org/tiny-comet", endpoint=hub.endpoint, echo=lambda m: None)
        ckpt_gets = [r for r in hub.requests if r.startswith("GET") and "model.ckpt" in r]
    assert ckpt.is_file() and ckpt.stat().st_size == size
    assert len(ckpt_gets) == 1 and "(from byte " in ckpt_gets[0]  # resumed from the partial file
    snapshot = ckpt.parent.parent
    assert verify_snapshot(snapshot) == []
    blob = Path(os.path.realpath(snapshot / "hparams.yaml"))
    blob.chmod(0o644)
    blob.write_text(blob.read_text(encoding="utf-8") + "# tampered\n", encoding="utf-8")
    assert verify_snapshot(snapshot) == [f"hparams.yaml: content does not match its hash {blob.name}"]


def test_a_model_folder_copied_by_hand_is_added_and_found_offline(hub_repos, tmp_path, capsys):
    from mteval_gui.scoring.metrics.comet import locate_comet_model

    src = tmp_path / "copied" / "tiny-comet"
    import shutil

    shutil.copytree(hub_repos["test-org/tiny-comet"], src)
    assert main(["models", "add", str(src), "--name", "my-org/tiny"]) == 1  # its encoder is not on this machine
    assert "--encoder FOLDER" in capsys.readouterr().err
    assert (
        main(["models", "add", str(src), "--name", "my-org/tiny", "--encoder", str(hub_repos["test-org/tiny-xlmr"])])
        == 0
    )
    assert "COMET model 'my-org/tiny' added" in capsys.readouterr().out
    located = locate_comet_model("my-org/tiny")
    assert located.checkpoint.is_file() and located.hparams.is_file()
    assert main(["models", "list"]) == 0
    assert "  my-org/tiny\n    added by hand (" in capsys.readouterr().out
    assert (
        main(["models", "add", str(src), "--name", "my-org/tiny", "--encoder", str(hub_repos["test-org/tiny-xlmr"])])
        == 1
    )
    assert "already added" in capsys.readouterr().err


def test_a_port_or_request_id_with_401_in_it_does_not_make_a_missing_model_gated():
    """The fake hub listens on a random port: one like 40123 made a missing model "need an account"."""
    from types import SimpleNamespace

    from mteval_gui.app.models import _failure

    class RepositoryNotFoundError(Exception):
        def __init__(self, text: str, status: int | None):
            super().__init__(text)
            self.response = None if status is None else SimpleNamespace(status_code=status)

    missing = RepositoryNotFoundError("404 Client Error. (Request ID: 4013)\nRepository Not Found for url: "
                                      "http://127.0.0.1:40123/api/models/test-org/nothing", 404)
    assert str(_failure("test-org/nothing", missing, None)).endswith("(check the model id)")
    private = RepositoryNotFoundError("401 Client Error: Unauthorized for url: http://127.0.0.1:8080/x", 401)
    assert "needs a Hugging Face account" in str(_failure("org/private", private, None))
    no_response = RepositoryNotFoundError("403 Client Error: Forbidden for url: http://127.0.0.1:8080/x", None)
    assert "needs a Hugging Face account" in str(_failure("org/private", no_response, None))
