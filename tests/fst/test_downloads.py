"""Downloads and packages under hostile conditions: slow, endless and lying servers, cancel, Ctrl-C, bombs.

Every server here listens on 127.0.0.1 only, and each of its loops is bounded in bytes and time.
"""

from __future__ import annotations

import http.server
import io
import os
import signal
import subprocess
import sys
import tarfile
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from mteval_gui.cli import main
from mteval_gui.fst.install import (
    MAX_DOWNLOAD_BYTES,
    MAX_DOWNLOAD_SECONDS,
    MAX_MEMBER_BYTES,
    MAX_UNPACKED_BYTES,
    InstallCancelled,
    InstallError,
    Limits,
    download,
    install_analyzer,
)
from tests.fst._support import _ar_member, build_tiny_hfstol

REPO = Path(__file__).resolve().parents[2]
SERVER_LIMIT_S = 20.0  # no handler of the test server runs longer than this


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):  # keep test output clean
        pass

    def _headers(self, length: int | None = None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.flush()

    def _trickle(self, data: bytes, pause: float) -> None:
        deadline = time.monotonic() + SERVER_LIMIT_S
        for b in data:
            if time.monotonic() > deadline:
                return
            self.wfile.write(bytes([b]))
            self.wfile.flush()
            time.sleep(pause)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        srv = self.server
        srv.requests.append(self.path)  # type: ignore[attr-defined]
        try:
            if self.path == "/slow.hfstol":  # a byte every 50 ms, no length: 1,000 bytes take 50 s
                self._headers()
                srv.body_started.set()  # type: ignore[attr-defined]
                self._trickle(b"HFST\x00" + b"\x00" * 995, 0.05)
            elif self.path == "/slow-headers.hfstol":  # the status line itself trickles in
                self._trickle(b"HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", 0.2)
            elif self.path == "/endless.hfstol":  # zeros without a length, up to 64 MB
                self._headers()
                chunk = b"\x00" * 65536
                deadline = time.monotonic() + SERVER_LIMIT_S
                for _ in range(1024):
                    if time.monotonic() > deadline:
                        break
                    self.wfile.write(chunk)
            elif self.path == "/lying.hfstol":  # announces 1,000 bytes, sends 500 and closes
                self._headers(1000)
                self.wfile.write(b"HFST\x00" + b"\x00" * 495)
            elif self.path == "/huge.deb":  # announces 10 GB
                self._headers(10_000_000_000)
                self.wfile.write(b"!<arch>\n")
            elif self.path in srv.cut:  # type: ignore[attr-defined]  # no length; the connection drops midway
                self._headers()
                self.wfile.write(srv.cut[self.path])  # type: ignore[attr-defined]
            elif self.path in srv.files:  # type: ignore[attr-defined]
                data = srv.files[self.path]  # type: ignore[attr-defined]
                self._headers(len(data))
                self.wfile.write(data)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up: what these tests want


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    httpd.requests = []  # type: ignore[attr-defined]
    httpd.files = {}  # type: ignore[attr-defined]
    httpd.cut = {}  # type: ignore[attr-defined]
    httpd.body_started = threading.Event()  # type: ignore[attr-defined]
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield httpd, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    t.join()


@pytest.fixture
def base(tmp_path) -> Path:
    return tmp_path / "analyzers"


def _no_staging(base: Path) -> bool:
    return not base.exists() or not [p for p in base.iterdir() if p.name.startswith(".install")]


def test_default_limits():
    assert Limits() == Limits(download_bytes=MAX_DOWNLOAD_BYTES, download_seconds=MAX_DOWNLOAD_SECONDS,
                              member_bytes=MAX_MEMBER_BYTES, unpacked_bytes=MAX_UNPACKED_BYTES)
    assert (MAX_DOWNLOAD_BYTES, MAX_DOWNLOAD_SECONDS, MAX_MEMBER_BYTES, MAX_UNPACKED_BYTES) == (
        1 << 30, 1800.0, 1 << 29, 1 << 30)


def test_a_slow_server_is_cut_off_at_the_total_time_limit(server, tmp_path, base):
    httpd, url = server
    dest = tmp_path / "x"
    with pytest.raises(InstallError, match=r"took longer than the limit of 1 s \(--max-time\); nothing was installed"):
        download(f"{url}/slow.hfstol", dest, timeout=5, max_seconds=1)  # each byte arrives well within 5 s
    assert 0 < dest.stat().st_size < 1000
    with pytest.raises(InstallError, match="took longer than the limit of 1 s"):
        install_analyzer("tst", f"{url}/slow.hfstol", base=base, limits=Limits(download_seconds=1))
    assert _no_staging(base) and not (base / "tst").exists()


def test_a_server_that_trickles_its_headers_is_cut_off_too(server, tmp_path):
    _, url = server
    with pytest.raises(InstallError, match="took longer than the limit of 1 s"):
        download(f"{url}/slow-headers.hfstol", tmp_path / "x", timeout=5, max_seconds=1)


def test_an_endless_body_stops_at_the_size_limit(server, tmp_path, base):
    _, url = server
    dest = tmp_path / "x"
    with pytest.raises(InstallError, match="more than the size limit of 1.0 MB arrived; nothing was installed"):
        download(f"{url}/endless.hfstol", dest, max_bytes=1_000_000)
    assert dest.stat().st_size <= 1_000_000
    with pytest.raises(InstallError, match="more than the size limit of 2.0 MB"):
        install_analyzer("tst", f"{url}/endless.hfstol", base=base, limits=Limits(download_bytes=2_000_000))
    assert _no_staging(base)


def test_a_body_shorter_than_its_content_length_is_refused(server, tmp_path, base):
    _, url = server
    with pytest.raises(InstallError, match="the connection ended after 500 of 1,000 bytes; nothing was installed"):
        install_analyzer("tst", f"{url}/lying.hfstol", base=base)
    assert _no_staging(base) and not (base / "tst").exists()


def test_a_content_length_over_the_limit_is_refused_before_reading(server, tmp_path):
    _, url = server
    with pytest.raises(InstallError, match=r"it is 10,000.0 MB, over the size limit of 1,073.7 MB"):
        download(f"{url}/huge.deb", tmp_path / "x")
    assert (tmp_path / "x").stat().st_size == 0


def test_a_download_can_be_cancelled(server, base):
    httpd, url = server
    cancel = threading.Event()

    def cancel_when_bytes_flow():
        httpd.body_started.wait(SERVER_LIMIT_S)
        cancel.set()

    t = threading.Thread(target=cancel_when_bytes_flow)
    t.start()
    with pytest.raises(InstallCancelled, match=r"download of .*/slow.hfstol cancelled; nothing was installed"):
        install_analyzer("tst", f"{url}/slow.hfstol", base=base, cancel=cancel)
    t.join()
    assert _no_staging(base) and not (base / "tst").exists()


def _default_sigint() -> None:
    """In the child: Ctrl-C with its default meaning, as in a terminal. A test process whose SIGINT is
    ignored (as when a test runner is started in the background) would pass that on to the command,
    which would then never see the Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is a POSIX test")
def test_ctrl_c_in_the_cli_cancels_cleanly(server, tmp_path):
    httpd, url = server
    base = tmp_path / "analyzers"
    env = dict(os.environ, MTEVAL_ANALYZERS=str(base), MTEVAL_HOME=str(tmp_path / "home"))
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from mteval_gui.cli import main; sys.exit(main())",
                             "analyzers", "install", "tst", f"{url}/slow.hfstol"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=_default_sigint)
    try:
        assert httpd.body_started.wait(SERVER_LIMIT_S), "the download never started"
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "mteval: download cancelled; nothing was installed"
    assert _no_staging(base) and not (base / "tst").exists()


def test_the_staging_folder_goes_whatever_ends_the_install(server, base, tmp_path):
    httpd, url = server
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    httpd.files["/tiny.hfstol"] = tiny.read_bytes()

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        install_analyzer("tst", f"{url}/tiny.hfstol", base=base, on_progress=interrupt)
    assert _no_staging(base)
    with pytest.raises(InstallError, match="404"):
        install_analyzer("tst", f"{url}/missing.hfstol", base=base)
    assert _no_staging(base)
    res = install_analyzer("tst", f"{url}/tiny.hfstol", base=base)
    assert res.files[0].path.read_bytes() == tiny.read_bytes() and _no_staging(base)


def test_a_download_cut_short_is_refused_and_nothing_is_left(server, base, tmp_path):
    # without a Content-Length a dropped connection looks like the end of the file: the file itself is checked
    httpd, url = server
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    data = tiny.read_bytes()
    for cut in (9, 200, len(data) // 2, len(data) - 1):
        httpd.cut[f"/cut-{cut}.hfstol"] = data[:cut]
        with pytest.raises(InstallError, match=rf"cut-{cut}.hfstol: not a readable HFST transducer \(the file is "
                                               r"truncated"):
            install_analyzer("tst", f"{url}/cut-{cut}.hfstol", base=base)
        assert _no_staging(base) and not (base / "tst").exists()


def test_a_downloaded_corrupt_analyzer_never_reaches_hfst(server, tmp_path):
    # same size as the real file, valid headers: hfst read it and crashed (SIGSEGV) on the first lookup
    from tests.fst._support import corrupt_first_transitions

    httpd, url = server
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    httpd.files["/corrupt.hfstol"] = corrupt_first_transitions(tiny, tmp_path / "corrupt.hfstol").read_bytes()
    base = tmp_path / "analyzers"
    env = dict(os.environ, MTEVAL_ANALYZERS=str(base), MTEVAL_HOME=str(tmp_path / "home"))
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-c", "import sys; from mteval_gui.cli import main; sys.exit(main())",
                           "analyzers", "install", "tst", f"{url}/corrupt.hfstol"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == ("mteval: error: corrupt.hfstol: not a readable HFST transducer "
                                                   "(corrupt index table (a target beyond the target table))")
    assert _no_staging(base) and not (base / "tst").exists()


def _returns_promptly(fn, *args, **kwargs):
    """Run fn in a thread; its exception, or a failure if it is still blocked after 30 s (a hang)."""
    box: list[BaseException | None] = []

    def run():
        try:
            fn(*args, **kwargs)
            box.append(None)
        except BaseException as exc:  # noqa: BLE001 (handed back to the test)
            box.append(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(30)
    assert box, "still blocked after 30 s"
    return box[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")
def test_fifos_devices_and_folders_are_refused_at_once(tmp_path, base):
    fifo = tmp_path / "analyzer.hfstol"
    os.mkfifo(fifo)
    try:
        cases = [(str(fifo), "not a regular file"), (fifo.as_uri(), "not a regular file"),
                 ("/dev/zero", "not a regular file"), ("file:///dev/zero", "not a regular file"),
                 (str(tmp_path), "a folder")]
        for source, what in cases:
            exc = _returns_promptly(install_analyzer, "tst", source, base=base)
            assert isinstance(exc, InstallError) and what in str(exc), (source, exc)
        assert _no_staging(base) and not (base / "tst").exists()
    finally:
        fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # releases a reader blocked on the FIFO, if any
        os.close(fd)


def test_language_codes_are_validated_before_anything_is_written(tmp_path):
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    base = tmp_path / "a" / "analyzers"
    for code in ("..", "../x", "CRK", "cr", "crkk", "c/r", "", "crk/../../x"):
        with pytest.raises(InstallError, match="is not a language code: expected three lower-case letters"):
            install_analyzer(code, tiny, base=base)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.hfstol"]


def test_cli_install_refuses_a_path_as_language(tmp_path, monkeypatch, capsys):
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    base = tmp_path / "user" / "analyzers"
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(base))
    assert main(["analyzers", "install", "..", str(tiny)]) == 1
    assert "'..' is not a language code" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.hfstol"]  # nothing next to or above the folder


def test_cli_install_has_a_total_time_limit(server, tmp_path, monkeypatch, capsys):
    _, url = server
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "analyzers"))
    assert main(["analyzers", "install", "tst", f"{url}/slow.hfstol", "--max-time", "1"]) == 1
    assert "took longer than the limit of 1 s (--max-time)" in capsys.readouterr().err


# -- packages ----------------------------------------------------------------------------------
class _Zeros(io.RawIOBase):
    def __init__(self, n: int) -> None:
        self.left = n

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n


def _bomb_deb(path: Path, member_size: int, compression: str = "gz") -> Path:
    """A small .deb whose data archive holds one analyzer-named member of ``member_size`` zero bytes."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=f"w:{compression}") as tar:
        info = tarfile.TarInfo("./usr/share/giella/tst/analyser-gt-norm.hfstol")
        info.size = member_size
        tar.addfile(info, io.BufferedReader(_Zeros(member_size)))
    blob = b"!<arch>\n" + _ar_member("debian-binary", b"2.0\n") + _ar_member(f"data.tar.{compression}",
                                                                           buf.getvalue())
    path.write_bytes(blob)
    return path


@pytest.mark.parametrize("compression", ["gz", "xz", "bz2"])
def test_a_package_that_expands_beyond_the_limit_is_refused(tmp_path, base, compression):
    deb = _bomb_deb(tmp_path / f"bomb-{compression}.deb", 24 << 20, compression)
    assert deb.stat().st_size < 200_000
    with pytest.raises(InstallError, match=rf"bomb-{compression}.deb: data.tar.{compression} expands to more than "
                                           r"4.2 MB; nothing was installed"):
        install_analyzer("tst", deb, base=base, limits=Limits(unpacked_bytes=4_194_304))
    with pytest.raises(InstallError, match=r"analyser-gt-norm.hfstol is 25.2 MB, over the limit of 1.0 MB for one "
                                           "transducer"):
        install_analyzer("tst", deb, base=base, limits=Limits(member_bytes=1_000_000))
    assert _no_staging(base) and not (base / "tst").exists()


def test_package_members_are_streamed_not_held_in_memory(tmp_path, base):
    deb = _bomb_deb(tmp_path / "big.deb", 64 << 20)  # 64 MB of zeros in a ~65 KB package
    tracemalloc.start()
    try:
        with pytest.raises(InstallError, match="analyser-gt-norm.hfstol: not a readable HFST transducer"):
            install_analyzer("tst", deb, base=base)  # default limits: extracted to a file, then refused
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, f"peak {peak / 1e6:.1f} MB"
    assert _no_staging(base)


def _killed_install(httpd, url: str, base: Path, home: Path, sig: int) -> Path:
    """The staging folder left by ``mteval analyzers install`` killed with ``sig`` mid-download."""
    env = dict(os.environ, MTEVAL_ANALYZERS=str(base), MTEVAL_HOME=str(home))
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    httpd.body_started.clear()
    proc = subprocess.Popen([sys.executable, "-m", "mteval_gui", "analyzers", "install", "tst", f"{url}/slow.hfstol"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        assert httpd.body_started.wait(SERVER_LIMIT_S), "the download never started"
        time.sleep(0.2)
        proc.send_signal(sig)  # no Python code runs: the staging folder stays
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    (left,) = [p for p in base.iterdir() if p.name.startswith(".install")]
    assert [p.name for p in left.iterdir()] == ["artifact-slow.hfstol"]
    return left


def _held(folder: Path) -> int:
    """Lock ``folder`` as a running install does (released when the descriptor is closed)."""
    import fcntl

    folder.mkdir()
    fd = os.open(folder, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM to a child process is a POSIX test")
def test_a_staging_folder_left_by_a_killed_install_goes_with_the_next_install(server, base, tmp_path):
    httpd, url = server
    _killed_install(httpd, url, base, tmp_path / "home", signal.SIGTERM)
    fd = _held(base / ".install-tst-live")  # an install still running (its process holds the lock)
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    try:
        res = install_analyzer("tst", tiny, base=base)
        assert sorted(p.name for p in base.iterdir() if p.name.startswith(".install")) == [".install-tst-live"]
    finally:
        os.close(fd)
    assert res.files[0].path.read_bytes() == tiny.read_bytes()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL to a child process is a POSIX test")
def test_a_staging_folder_left_by_a_sigkilled_install_goes_at_once_with_analyzers_list(server, base, tmp_path,
                                                                                        monkeypatch, capsys):
    """No waiting period: the folder of a killed install goes with the next ``analyzers list``
    run a moment later; the folder of an install still running stays."""
    httpd, url = server
    _killed_install(httpd, url, base, tmp_path / "home", signal.SIGKILL)
    fd = _held(base / ".install-tst-live")
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(base))
    try:
        assert main(["analyzers", "list"]) == 0
        assert sorted(p.name for p in base.iterdir() if p.name.startswith(".install")) == [".install-tst-live"]
    finally:
        os.close(fd)
    assert main(["analyzers", "list"]) == 0  # now that its process let go of it
    capsys.readouterr()
    assert sorted(p.name for p in base.iterdir()) == []
