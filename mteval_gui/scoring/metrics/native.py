"""Kernels compiled by numba once per machine, kept as machine code, loaded with llvmlite alone.

A kernel is a plain Python function in the subset numba compiles, over raw buffers (C
pointers and integers: no array objects, no allocation, no exception), so that its compiled
code calls nothing outside itself. The first use on a machine compiles it with numba (a few
seconds) and keeps its machine code in a file named after everything the code depends on
(the source file, the numba and llvmlite versions, the processor and its features), checked
by a sha256 header; later processes load that file with llvmlite alone, without importing
numba (whose import and cache loading cost more than scoring a corpus). A file that does not
load is compiled again; where it cannot be written, numba's own cache serves the process.

The file lies in ``__pycache__`` beside the source, or under the per-user cache folder when
the installation is read-only, or in ``$NUMBA_CACHE_DIR`` when set. Without numba,
:meth:`KeptKernel.load` raises ImportError (the metric then uses its pure-Python code).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

OBJECT_SUFFIX = ".o"
_C_TYPES = {"i32*": ctypes.c_void_p, "i64*": ctypes.c_void_p, "i8*": ctypes.c_void_p, "i64": ctypes.c_int64}

Kernel = Callable[..., int]


def llvm_binding() -> Any:
    """llvmlite's binding with the native target initialised."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm


def _target_machine(llvm: Any) -> Any:
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(),
                                        opt=3, codemodel="jitdefault")


def _numba_version() -> str:
    """A digest of numba's version file, without importing numba (ImportError without it)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        raise ImportError("No module named 'numba'")
    try:
        return hashlib.sha256((Path(spec.origin).parent / "_version.py").read_bytes()).hexdigest()[:16]
    except OSError:
        return "unknown"


def writable_cache_dir(package_dir: Path) -> Path | None:
    """None when ``__pycache__`` beside the source is writable (numba's default), else
    ``<user cache>/numba``."""
    pycache = package_dir / "__pycache__"
    if os.access(pycache if pycache.is_dir() else package_dir, os.W_OK):
        return None
    from mteval_gui.paths import user_cache_dir

    return user_cache_dir() / "numba"


class KeptKernel:
    """One kernel: ``function`` (its ``helpers`` compiled with it) with parameters ``args``
    (``"i32*"``, ``"i64*"``, ``"i8*"`` or ``"i64"``), returning an int64."""

    def __init__(self, name: str, source: Path, function: Callable[..., int], helpers: Sequence[Callable[..., Any]],
                 args: Sequence[str]) -> None:
        self.name = name
        self.source = source
        self.function = function
        self.helpers = tuple(helpers)
        self.args = tuple(args)
        self.entry = f"mteval_{name}"
        self.magic = f"mteval {name} kernel 1\n".encode()
        self.loader: str | None = None  # "cached", "compiled" or "numba" once loaded
        self._keep: list[Any] = []  # the engine or numba object that holds the code
        self._lock = threading.Lock()
        self._state: dict[str, Any] = {}

    def get(self) -> Kernel | None:
        """The kernel, loaded (or compiled) once per process; None when numba is not installed
        (the metric then counts with sacrebleu's own code)."""
        with self._lock:
            if "kernel" not in self._state:
                try:
                    self._state["kernel"] = self.load()
                    self._state["implementation"] = "numba"
                except ImportError as exc:
                    self._state.update(kernel=None, implementation="sacrebleu",
                                       reason=f"numba is not available ({exc})")
            run: Kernel | None = self._state["kernel"]
            return run

    def implementation(self) -> str:
        """``"numba"`` (the compiled kernel) or ``"sacrebleu"`` (sacrebleu's pure-Python code)."""
        self.get()
        return str(self._state["implementation"])

    def fallback_reason(self) -> str | None:
        """Why sacrebleu's code does the counting (None when the kernel does)."""
        self.get()
        reason: str | None = self._state.get("reason")
        return reason

    def object_dir(self) -> Path:
        configured = os.environ.get("NUMBA_CACHE_DIR")
        if configured:
            return Path(configured)
        here = self.source.parent
        return writable_cache_dir(here) or here / "__pycache__"

    def object_path(self, llvm: Any) -> Path:
        """The kept machine code of this kernel for this machine."""
        import llvmlite

        key = hashlib.sha256("\0".join((
            self.source.read_text(encoding="utf-8"), _numba_version(), llvmlite.__version__,
            llvm.get_default_triple(), llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten(),
        )).encode("utf-8")).hexdigest()[:24]
        return self.object_dir() / f"{self.name}.{key}{OBJECT_SUFFIX}"

    def _callable(self, address: int) -> Kernel:
        proto = ctypes.CFUNCTYPE(ctypes.c_int64, *(_C_TYPES[a] for a in self.args))
        fn: Kernel = proto(address)
        return fn

    def load_file(self, llvm: Any, path: Path) -> tuple[Kernel, Any]:
        """The kernel from kept machine code (and the engine that holds it)."""
        data = path.read_bytes()
        head = len(self.magic) + 32
        code = data[head:]
        if not data.startswith(self.magic) or hashlib.sha256(code).digest() != data[len(self.magic):head]:
            raise ValueError(f"{path} is not this kernel's machine code")
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _target_machine(llvm))
        engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        engine.finalize_object()
        address = engine.get_function_address(self.entry)
        if not address:
            raise OSError(f"{path} holds no {self.entry}")
        return self._callable(address), engine

    def machine_code(self, llvm: Any, ir: str, entry: str) -> bytes:
        """Machine code of ``entry`` alone (renamed to this kernel's symbol; everything else made
        internal and dropped); ValueError when it would call anything outside itself."""
        module = llvm.parse_assembly(ir)
        for fn in module.functions:
            if fn.name == entry:
                fn.name = self.entry
            elif not fn.is_declaration:
                fn.linkage = "internal"
        for gv in module.global_variables:
            if not gv.is_declaration:
                gv.linkage = "internal"
        tm = _target_machine(llvm)
        pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=3))
        mpm = pb.getModulePassManager()
        mpm.add_global_dead_code_eliminate_pass()
        mpm.add_strip_dead_prototype_pass()
        mpm.run(module, pb)
        module.verify()
        external = sorted({f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")}
                          | {g.name for g in module.global_variables if g.is_declaration})
        if external:
            raise ValueError(f"the compiled kernel calls {', '.join(external)}")
        code: bytes = tm.emit_object(module)
        return code

    def _numba_compile(self, path: Path | None) -> Kernel:
        import numba
        from numba.extending import register_jitable

        for fn in self.helpers:
            register_jitable(fn)
        types: Any = numba.types
        ty = {"i32*": types.CPointer(types.int32), "i64*": types.CPointer(types.int64),
              "i8*": types.CPointer(types.int8), "i64": types.int64}
        signature = types.int64(*(ty[a] for a in self.args))
        config: Any = numba.config
        previous = config.CACHE_DIR
        cache_dir = None if previous else writable_cache_dir(self.source.parent)
        if cache_dir is not None:
            try:
                cache_dir.mkdir(parents=True, exist_ok=True)
                config.CACHE_DIR = str(cache_dir)
            except OSError:
                pass  # numba's own per-user folder is then tried
        try:
            compiled: Any = numba.cfunc(signature, cache=True, error_model="numpy")(self.function)
        finally:
            config.CACHE_DIR = previous
        if path is not None:
            llvm = llvm_binding()
            try:
                code = self.machine_code(llvm, compiled.inspect_llvm(), compiled.native_name)
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
                tmp.write_bytes(self.magic + hashlib.sha256(code).digest() + code)
                tmp.replace(path)
                run, engine = self.load_file(llvm, path)
                self._keep = [engine]
                self.loader = "compiled"
                return run
            except (OSError, ValueError, RuntimeError):
                pass  # numba's own code serves this process; the next one compiles again
        self._keep = [compiled]
        self.loader = "numba"
        return self._callable(int(compiled.address))

    def load(self) -> Kernel:
        """The kernel: its kept machine code when there is one for this machine, else compiled
        by numba (ImportError without numba)."""
        llvm = llvm_binding()
        try:
            path = self.object_path(llvm)
        except (OSError, UnicodeError):
            return self._numba_compile(None)
        if path.is_file():
            try:
                run, engine = self.load_file(llvm, path)
            except (OSError, RuntimeError, ValueError):
                pass  # compiled again below
            else:
                self._keep = [engine]
                self.loader = "cached"
                return run
        return self._numba_compile(path)
