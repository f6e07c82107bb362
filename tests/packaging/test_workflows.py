"""The Windows and macOS bundle workflows (they cannot run here): what can be checked without GitHub."""

from __future__ import annotations

import re
from pathlib import Path

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
# GitHub-hosted runner images a job may name; retired ones (macos-13 on 2025-12-04,
# windows-2019, ubuntu-20.04) no longer get a runner, so such a job waits and never starts.
HOSTED = {"ubuntu-latest", "ubuntu-24.04", "ubuntu-22.04", "windows-latest", "windows-2025", "windows-2022",
          "macos-latest", "macos-14", "macos-15", "macos-15-intel", "macos-26"}


def _runners(text: str) -> list[str]:
    return re.findall(r"^\s*(?:-\s*)?(?:runs-on|runner):\s*([^\s#]+)", text, flags=re.M)


def test_bundle_workflows_name_runner_images_that_exist():
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(WORKFLOWS.glob("bundle-*.yml"))}
    assert sorted(texts) == ["bundle-macos.yml", "bundle-windows.yml"]
    assert _runners(texts["bundle-windows.yml"]) == ["windows-latest"]
    assert "runs-on: ${{ matrix.runner }}" in texts["bundle-macos.yml"]
    macos = [r for r in _runners(texts["bundle-macos.yml"]) if not r.startswith("${{")]
    assert macos == ["macos-15-intel", "macos-14"]  # Intel, Apple silicon
    assert set(macos) <= HOSTED
    assert re.findall(r"^\s*arch:\s*(\S+)", texts["bundle-macos.yml"], flags=re.M) == ["x86_64", "arm64"]
    for text in texts.values():
        assert "python packaging/build.py --fonts fonts" in text
        assert '--demo --quit-after 5000' in text
