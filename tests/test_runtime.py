"""The one owner of child processes: typed messages, failures that keep their exception, the
cancel event (and an orphan's), kill-after, tasks shared by forked workers."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from mteval_gui import runtime
from mteval_gui.errors import Cancelled, Defect, InputError, MtevalError
from mteval_gui.store.locks import RunBusy

needs_fork = pytest.mark.skipif(not runtime.can_fork(), reason="needs os.fork")
HOLDER = {"pid": 4242, "host": "elsewhere", "purpose": "scored", "acquired_at": "2026-12-01T10:00:00Z"}


class Unpicklable(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.lock = threading.Lock()  # does not pickle


def _through_a_pipe(msg: runtime.Message) -> runtime.Message:
    out: runtime.Message = pickle.loads(pickle.dumps(msg))
    return out


# --------------------------------------------------------------------------- messages


def test_a_failure_message_keeps_the_exception_type_and_attributes():
    bad = InputError([Defect("bad.tsv", 3, "2 fields, 3 expected"), Defect("bad.tsv", 9, "empty source")])
    got = _through_a_pipe(runtime.FailedMsg(bad, tag=7))
    assert isinstance(got, runtime.FailedMsg) and got.tag == 7
    assert type(got.error) is InputError
    assert got.error.defects == [Defect("bad.tsv", 3, "2 fields, 3 expected"), Defect("bad.tsv", 9, "empty source")]
    assert str(got.error) == "bad.tsv:3: 2 fields, 3 expected\nbad.tsv:9: empty source"


def test_an_exception_whose_constructor_does_not_take_its_message_back_keeps_its_type():
    """RunBusy(run_id, holder) builds its message: pickling it alone fails on the way back."""
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(RunBusy("good", HOLDER)))
    got = _through_a_pipe(runtime.FailedMsg(RunBusy("good", HOLDER)))
    assert isinstance(got, runtime.FailedMsg) and type(got.error) is RunBusy
    assert got.error.run_id == "good" and got.error.holder == HOLDER
    assert str(got.error) == ("run 'good' is being scored by another job (process 4242 on elsewhere, since "
                              "2026-12-01T10:00:00Z); wait for it to finish, or cancel it, and try again")


def test_an_exception_that_cannot_travel_becomes_child_failed_with_its_traceback():
    try:
        raise Unpicklable("a lock inside")
    except Unpicklable as exc:
        got = _through_a_pipe(runtime.FailedMsg(exc))
    assert isinstance(got, runtime.FailedMsg) and type(got.error) is runtime.ChildFailed
    assert str(got.error) == "Unpicklable: a lock inside"
    assert "raise Unpicklable(\"a lock inside\")" in got.error.detail


def test_report_sends_one_final_message_of_the_right_kind():
    sent: list[runtime.Message] = []
    out = runtime.Outbox(sent.append, tag="r1")
    assert runtime.report(out, lambda: 42) == runtime.DoneMsg(42, "r1")

    def cancelled():
        raise Cancelled("stop")

    assert runtime.report(out, cancelled) == runtime.CancelledMsg("r1")

    def interrupted():
        raise KeyboardInterrupt

    event = threading.Event()
    assert isinstance(runtime.report(out, interrupted, event), runtime.FailedMsg)  # the user's, not a cancel
    event.set()
    assert runtime.report(out, interrupted, event) == runtime.CancelledMsg("r1")
    out.progress((1, 2))
    out.partial({"run_id": "r1"})
    assert sent[-2:] == [runtime.ProgressMsg((1, 2), "r1"), runtime.PartialMsg({"run_id": "r1"}, "r1")]


# --------------------------------------------------------------------------- children


def _fail_with(exc: BaseException, sender) -> None:
    out = runtime.Outbox.of(sender)
    out.progress("started")

    def work():
        raise exc

    runtime.report(out, work)


def _wait_for_cancel(cancel: runtime.CancelEvent, sender) -> None:
    out = runtime.Outbox.of(sender, tag="child")
    out.progress("waiting")

    def work():
        while not cancel.wait(0.05):
            pass
        raise Cancelled("stopped")

    runtime.report(out, work, cancel)


def _never_stops(cancel: runtime.CancelEvent, sender) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    runtime.Outbox.of(sender).progress("stubborn")
    threading.Event().wait()


def _supervised(target, *args, method: runtime.Method = "fork", kill_after: float = 10.0):
    receiver, sender = runtime.pipe()
    cancel = runtime.CancelEvent(method)
    child = runtime.start(target, *args if args else (cancel,), sender, method=method, name="mteval-test")
    sender.close()
    seen: list[runtime.Message] = []

    def on_message(msg):
        seen.append(msg)
        if msg.value in ("waiting", "stubborn"):
            cancel.set()

    try:
        end = runtime.supervise(child, receiver, cancel, on_message=on_message, kill_after=kill_after)
    finally:
        child.end(grace=5)
        receiver.close()
    return end, seen, child


def test_a_spawned_child_failing_keeps_its_error_type():
    end, seen, child = _supervised(_fail_with, InputError(Defect("in.jsonl", 2, "not JSON")), method="spawn")
    assert seen == [runtime.ProgressMsg("started")]
    assert isinstance(end, runtime.FailedMsg) and type(end.error) is InputError
    assert end.error.defects == [Defect("in.jsonl", 2, "not JSON")]
    assert not child.alive  # ended once it had said how the work ended


@needs_fork
def test_a_forked_child_failing_keeps_its_error_type():
    end, _seen, _child = _supervised(_fail_with, RunBusy("poor", HOLDER))
    assert isinstance(end, runtime.FailedMsg) and type(end.error) is RunBusy and end.error.run_id == "poor"


@needs_fork
def test_cancel_stops_the_child_between_units_of_work():
    end, seen, child = _supervised(_wait_for_cancel)
    assert seen == [runtime.ProgressMsg("waiting", "child")]
    assert end == runtime.CancelledMsg("child")  # the child's own word, not the parent's kill
    assert not child.alive


@needs_fork
def test_a_child_that_ignores_the_cancel_is_killed_after_kill_after():
    end, seen, child = _supervised(_never_stops, kill_after=0.5)
    assert seen == [runtime.ProgressMsg("stubborn")] and end == runtime.CancelledMsg()  # the parent's verdict
    assert child.exitcode == -signal.SIGKILL


@needs_fork
def test_a_child_that_dies_without_a_word_is_a_failure_naming_its_exit_code():
    end, _seen, _child = _supervised(lambda cancel, sender: os._exit(3))
    assert isinstance(end, runtime.FailedMsg) and type(end.error) is runtime.ChildFailed
    assert str(end.error) == "the background process ended unexpectedly (exit code 3)"


def _orphan(flag: str) -> None:
    """In a forked process: create the cancel event, fork a child that waits for it, then end."""
    cancel = runtime.CancelEvent("fork")

    def grandchild() -> None:
        cancel.wait()
        Path(flag).write_text("orphaned" if cancel.orphaned() else "cancelled", encoding="utf-8")

    runtime.start(grandchild, method="fork", name="mteval-test-orphan")
    # ends at once, without setting the event: the grandchild is an orphan


@needs_fork
def test_a_child_sees_the_cancel_event_set_once_its_parent_is_gone(tmp_path):
    flag = tmp_path / "seen"
    parent = runtime.start(_orphan, str(flag), method="fork", name="mteval-test-parent")
    assert parent.join(60) and parent.exitcode == 0
    deadline = time.monotonic() + 60
    while not flag.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert flag.read_text(encoding="utf-8") == "orphaned"


def test_the_cancel_event_is_never_orphaned_in_the_process_that_made_it():
    cancel = runtime.CancelEvent(event=threading.Event())
    assert not cancel.orphaned() and not cancel.is_set() and not cancel.wait(0.01)
    cancel.set()
    assert cancel.is_set() and cancel.wait(0)


# --------------------------------------------------------------------------- tasks shared by forked workers


@contextlib.contextmanager
def _session():
    yield os.getpid()


def _work(pid: int, payload: str, outbox: runtime.Outbox, cancel: runtime.CancelEvent) -> str:
    outbox.progress(f"{payload} in {pid}")
    if payload == "bad":
        raise InputError(Defect("bad.tsv", 1, "no header"))
    if payload == "busy":
        raise RunBusy("busy", HOLDER)
    if payload == "die":
        os._exit(9)
    return payload.upper()


def _fan_out(payloads: list[str], workers: int = 2) -> dict[int, runtime.Message]:
    ends: dict[int, runtime.Message] = {}

    def on_message(msg: runtime.Message) -> None:
        if not isinstance(msg, runtime.ProgressMsg | runtime.PartialMsg):
            assert msg.tag not in ends  # one final message per task
            ends[msg.tag] = msg

    runtime.fan_out(list(enumerate(payloads)), workers=workers, session=_session, work=_work, on_message=on_message,
                    cancelled=lambda: False, name="mteval-test")
    return ends


@needs_fork
def test_fan_out_keeps_each_failure_type_and_goes_on_with_the_other_tasks():
    ends = _fan_out(["a", "bad", "b", "busy", "c"])
    assert [ends[i] for i in (0, 2, 4)] == [runtime.DoneMsg("A", 0), runtime.DoneMsg("B", 2), runtime.DoneMsg("C", 4)]
    assert isinstance(ends[1], runtime.FailedMsg) and type(ends[1].error) is InputError
    assert ends[1].error.defects == [Defect("bad.tsv", 1, "no header")]
    assert isinstance(ends[3], runtime.FailedMsg) and type(ends[3].error) is RunBusy


@needs_fork
def test_fan_out_reports_the_task_of_a_worker_that_died_and_the_others_finish():
    ends = _fan_out(["die", "a", "b", "c"], workers=2)
    assert isinstance(ends[0], runtime.FailedMsg) and type(ends[0].error) is runtime.ChildFailed
    assert str(ends[0].error) == "the scoring process ended unexpectedly"
    assert [ends[i] for i in (1, 2, 3)] == [runtime.DoneMsg("A", 1), runtime.DoneMsg("B", 2), runtime.DoneMsg("C", 3)]


@needs_fork
def test_fan_out_with_every_worker_dead_fails_every_task_left():
    ends = _fan_out(["die", "a", "b"], workers=1)
    assert sorted(ends) == [0, 1, 2]
    assert all(isinstance(m, runtime.FailedMsg) and isinstance(m.error, MtevalError) for m in ends.values())


@needs_fork
@pytest.mark.skipif(sys.platform != "linux", reason="OFD locks are Linux's")
def test_a_forked_child_leaves_the_parents_workspace_guard(tmp_path):
    """A forked helper or worker inherits the parent's open workspace: whatever it closes there,
    the parent's OFD guard holds (another process cannot delete the WAL the parent writes to)."""
    from mteval_gui.store import Workspace, walguard
    from tests.store.test_walguard import _keys, _lose_locks_and_let_another_process_close, _set

    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    _set(ws, "a")

    def child() -> None:
        ws.close()  # the parent's connection, inherited
        own = Workspace(db)
        _set(own, "b")
        own.close()

    forked = runtime.start(child, method="fork", name="mteval-test-guard")
    assert forked.join(60) and forked.exitcode == 0
    assert walguard.held_count(str(db)) == 1
    _lose_locks_and_let_another_process_close(db, ws)
    assert Path(f"{db}-wal").exists()
    _set(ws, "b2")  # after another process closed: kept only while the guard holds
    ws.close()
    assert _keys(db) == ["a", "b", "other"]
    again = Workspace(db)
    assert again.conn.execute("SELECT count(*) FROM settings WHERE key = 'b2'").fetchone()[0] == 1
    again.close()


def test_freed_memory_is_given_back_before_a_fork():
    """A forked child starts with the resident pages of its parent: those of large objects freed
    before the fork are given back first (glibc's malloc_trim), so they are not counted twice."""
    import ctypes

    from mteval_gui import runtime

    try:
        assert ctypes.CDLL("libc.so.6").malloc_trim is not None
    except (OSError, AttributeError):
        pytest.skip("no glibc malloc_trim here")

    def rss_kb() -> int:
        with open("/proc/self/status", encoding="utf-8") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS"))

    # many blocks below the mmap threshold, every other one kept: the freed ones stay in the heap
    blocks = [bytearray(100_000) for _ in range(1_000)]
    kept = blocks[::50]
    del blocks
    before = rss_kb()
    runtime.release_free_memory()
    after = rss_kb()
    assert len(kept) == 20
    assert before - after > 50_000, f"{before - after} kB given back"
