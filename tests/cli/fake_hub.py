"""A minimal Hugging Face Hub on 127.0.0.1 serving folders as model repositories.

Answers the three requests ``huggingface_hub.snapshot_download`` makes: the repository info
(``/api/models/<id>/revision/<rev>``), and ``HEAD``/``GET`` of
``/<id>/resolve/<commit>/<path>``. Used to test ``mteval models download`` without the internet.
"""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit


class FakeHub:
    def __init__(self, repos: dict[str, Path], *, slow: float = 0.0):
        """``slow``: seconds to wait between 64 kB chunks of a file body (to test cancel and resume)."""
        self.repos = {rid: Path(folder) for rid, folder in repos.items()}
        self.slow = slow
        self.requests: list[str] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_HEAD(self):
                hub._serve(self, body=False)

            def do_GET(self):
                hub._serve(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def commit(self, repo_id: str) -> str:
        return hashlib.sha1(repo_id.encode()).hexdigest()

    def _files(self, repo_id: str) -> list[str]:
        root = self.repos[repo_id]
        return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

    def _send(self, h: BaseHTTPRequestHandler, status: int, data: bytes, headers: dict[str, str], body: bool) -> None:
        h.send_response(status)
        for k, v in headers.items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        if not body:
            return
        if not self.slow:
            h.wfile.write(data)
            return
        import time

        try:
            for i in range(0, len(data), 1 << 12):
                h.wfile.write(data[i:i + (1 << 12)])
                h.wfile.flush()
                time.sleep(self.slow)
        except (BrokenPipeError, ConnectionResetError):  # the client went away (cancelled)
            return

    def _serve(self, h: BaseHTTPRequestHandler, body: bool) -> None:
        path = unquote(urlsplit(h.path).path)
        self.requests.append(f"{h.command} {path}")
        parts = path.strip("/").split("/")
        if parts[:2] == ["api", "models"] and "revision" in parts:
            i = parts.index("revision")
            repo_id = "/".join(parts[2:i])
            if repo_id not in self.repos:
                return self._send(h, 404, b'{"error": "Repository not found"}',
                                  {"Content-Type": "application/json", "X-Error-Code": "RepoNotFound"}, body)
            info = {"id": repo_id, "modelId": repo_id, "sha": self.commit(repo_id), "private": False,
                    "siblings": [{"rfilename": f} for f in self._files(repo_id)]}
            return self._send(h, 200, json.dumps(info).encode(), {"Content-Type": "application/json"}, body)
        if "resolve" in parts:
            i = parts.index("resolve")
            repo_id = "/".join(parts[:i])
            rel = "/".join(parts[i + 2:])
            file = self.repos.get(repo_id, Path("/nonexistent")) / rel
            if repo_id not in self.repos or not file.is_file():
                return self._send(h, 404, b"not found", {"X-Error-Code": "EntryNotFound"}, body)
            data = file.read_bytes()
            etag = hashlib.sha256(data).hexdigest()
            headers = {"ETag": f'"{etag}"', "X-Repo-Commit": self.commit(repo_id),
                       "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"}
            wanted = h.headers.get("Range", "")
            if body and wanted.startswith("bytes=") and wanted.endswith("-"):  # a resumed download
                start = int(wanted[len("bytes="):-1])
                self.requests[-1] += f" (from byte {start})"
                headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
                return self._send(h, 206, data[start:], headers, body)
            return self._send(h, 200, data, headers, body)
        return self._send(h, 404, b"not found", {}, body)
