"""The layout of an HFST optimized-lookup file (``.hfstol``), read without hfst.

Both lookup backends need to know a file is sound before they touch it: hfst terminates the
whole process (an uncaught C++ exception, SIGABRT) on a truncated file, and pyhfst crashes
(SIGSEGV) or loops on one. Reading the header costs a few kilobytes and catches every
truncation:

- the HFST 3 header: ``HFST\\0``, a little-endian ``uint16`` length, ``\\0``, then that many
  bytes of ``key\\0value\\0`` properties (``type`` is ``HFST_OL`` or ``HFST_OLW`` for
  optimized lookup, unweighted or weighted);
- the optimized-lookup header: ``uint16`` input-symbol count, ``uint16`` symbol count,
  ``uint32`` index-table and target-table sizes, state and transition counts, then nine
  booleans stored as ``uint32`` (weighted, deterministic, input-deterministic, minimized,
  cyclic, epsilon-epsilon transitions, input-epsilon transitions, input-epsilon cycles,
  unweighted input-epsilon cycles) — 56 bytes;
- the symbol table: ``symbol count`` NUL-terminated UTF-8 strings; the first
  ``input-symbol count`` are the input alphabet (symbol 0 is epsilon), flag diacritics
  (``@P.feature.value@``...) among them;
- the index table (6 bytes an entry) and the target table (8 bytes an entry, 12 when
  weighted).

A file holding several transducers continues after the first one; only the first is used.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

HFST_MAGIC = b"HFST\x00"
OL_TYPES = {"HFST_OL": False, "HFST_OLW": True}  # type property -> weighted
_OL_HEADER = struct.Struct("<HHIIII9I")
_FLAG = re.compile(r"^@[PNRDCU]\.[^@.]+(?:\.[^@]*)?@$")
SPECIAL_SYMBOLS = ("@_EPSILON_SYMBOL_@", "@_UNKNOWN_SYMBOL_@", "@_IDENTITY_SYMBOL_@")
_MAX_SYMBOL_TABLE = 64 << 20  # 65,535 symbols; no real alphabet comes near this many bytes


class FormatError(ValueError):
    """The file is not a complete HFST transducer (the message says why)."""


@dataclass(frozen=True)
class OlLayout:
    """What the header of an HFST file says about its first transducer."""

    type: str
    properties: dict[str, str]
    weighted: bool
    input_symbol_count: int
    symbols: tuple[str, ...]
    index_table_size: int
    target_table_size: int
    input_epsilon_cycles: bool
    transducer_bytes: int  # where the first transducer ends
    file_size: int

    @property
    def optimized_lookup(self) -> bool:
        return self.type in OL_TYPES

    @property
    def input_symbols(self) -> tuple[str, ...]:
        """The input alphabet without epsilon and flag diacritics (what a word may be made of)."""
        return tuple(s for s in self.symbols[1:self.input_symbol_count] if s and not is_flag(s))

    @property
    def flag_symbols(self) -> dict[int, str]:
        return {i: s for i, s in enumerate(self.symbols) if is_flag(s)}

    @property
    def special_input_symbols(self) -> tuple[str, ...]:
        """Unknown/identity symbols on the input side (they match characters outside the alphabet)."""
        return tuple(s for s in self.symbols[1:self.input_symbol_count] if s in SPECIAL_SYMBOLS[1:])


def is_flag(symbol: str) -> bool:
    return bool(_FLAG.match(symbol))


def _read_exact(fh: BinaryIO, n: int, what: str, size: int) -> bytes:
    data: bytes = fh.read(n)
    if len(data) != n:
        raise FormatError(f"the file is truncated (it ends inside the {what}; {size:,} bytes)")
    return data


def read_layout(path: str | Path) -> OlLayout:
    """Parse the headers and symbol table of an HFST file; raise :class:`FormatError` if incomplete.

    For an optimized-lookup transducer the tables must be complete too (the file is at least
    as long as its header announces). Other HFST types (OpenFst, foma) are reported with
    their type and no tables.
    """
    p = Path(path)
    size = p.stat().st_size
    with open(p, "rb") as fh:
        if fh.read(len(HFST_MAGIC)) != HFST_MAGIC:
            raise FormatError("the file does not start with the HFST header; GiellaLT .hfstol files do")
        (hlen,) = struct.unpack("<H", _read_exact(fh, 2, "HFST header", size))
        if _read_exact(fh, 1, "HFST header", size) != b"\x00":
            raise FormatError("corrupt HFST header")
        raw = _read_exact(fh, hlen, "HFST header", size)
        parts = raw.split(b"\x00")
        if parts and parts[-1] == b"":
            parts = parts[:-1]
        if len(parts) % 2:
            raise FormatError("corrupt HFST header (properties are not key/value pairs)")
        try:
            props = {parts[i].decode("utf-8"): parts[i + 1].decode("utf-8") for i in range(0, len(parts), 2)}
        except UnicodeDecodeError as exc:
            raise FormatError("corrupt HFST header (properties are not UTF-8)") from exc
        ttype = props.get("type", "")
        if ttype not in OL_TYPES:
            return OlLayout(type=ttype or "?", properties=props, weighted=False, input_symbol_count=0, symbols=(),
                            index_table_size=0, target_table_size=0, input_epsilon_cycles=False,
                            transducer_bytes=0, file_size=size)
        fields = _OL_HEADER.unpack(_read_exact(fh, _OL_HEADER.size, "optimized-lookup header", size))
        n_input, n_symbols, index_size, target_size = fields[0], fields[1], fields[2], fields[3]
        bools = fields[6:]
        if any(b not in (0, 1) for b in bools):
            raise FormatError("corrupt optimized-lookup header (flag fields are not 0 or 1)")
        weighted = bool(bools[0])
        if weighted != OL_TYPES[ttype]:
            raise FormatError(f"corrupt optimized-lookup header (type {ttype} but weighted={weighted})")
        if n_symbols == 0 or n_input > n_symbols:
            raise FormatError(f"corrupt optimized-lookup header ({n_input} input symbols of {n_symbols})")
        symbols: list[str] = []
        buf = b""
        start = fh.tell()
        while len(symbols) < n_symbols:
            nul = buf.find(b"\x00")
            if nul < 0:
                more = fh.read(65536)
                if not more:
                    raise FormatError(f"the file is truncated (it ends inside the symbol table; {size:,} bytes)")
                buf += more
                if fh.tell() - start > _MAX_SYMBOL_TABLE:
                    raise FormatError("corrupt symbol table (no end found)")
                continue
            try:
                symbols.append(buf[:nul].decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise FormatError(f"corrupt symbol table (symbol {len(symbols)} is not UTF-8)") from exc
            buf = buf[nul + 1:]
        tables_start = fh.tell() - len(buf)
    end = tables_start + index_size * 6 + target_size * (12 if weighted else 8)
    if size < end:
        raise FormatError(f"the file is truncated ({size:,} bytes; its header announces {end:,})")
    return OlLayout(type=ttype, properties=props, weighted=weighted, input_symbol_count=n_input,
                    symbols=tuple(symbols), index_table_size=index_size, target_table_size=target_size,
                    input_epsilon_cycles=bool(bools[7]), transducer_bytes=end, file_size=size)


TARGET_TABLE_START = 1 << 31  # a target at or above it points into the target table
NO_SYMBOL = 0xFFFF


def check_tables(path: str | Path, layout: OlLayout) -> None:
    """Check every pointer and symbol number of the tables; raise :class:`FormatError` on the first bad one.

    A damaged table (a few bytes changed, the size unchanged) made hfst read outside its tables
    and die with SIGSEGV on the first lookup. Checked here (vectorised, a few milliseconds for
    the crk analyzers): symbol numbers are within the alphabet (index-table input symbols within
    the input alphabet), and every target points inside its table, index-table targets leaving
    room for the lookup's offset by an input symbol.
    """
    if not layout.optimized_lookup:
        return
    import numpy as np

    n_input, n_symbols = layout.input_symbol_count, len(layout.symbols)
    n_index, n_target = layout.index_table_size, layout.target_table_size
    index_dt = np.dtype([("input", "<u2"), ("target", "<u4")])
    fields = [("input", "<u2"), ("output", "<u2"), ("target", "<u4")]
    target_dt = np.dtype(fields + ([("weight", "<f4")] if layout.weighted else []))
    start = layout.transducer_bytes - n_index * index_dt.itemsize - n_target * target_dt.itemsize
    with open(path, "rb") as fh:
        fh.seek(start)
        index = np.fromfile(fh, dtype=index_dt, count=n_index)
        target = np.fromfile(fh, dtype=target_dt, count=n_target)
    if len(index) != n_index or len(target) != n_target:
        raise FormatError("the file is truncated (it ends inside its tables)")

    def check_targets(t: Any, where: str) -> None:
        to_target = t >= TARGET_TABLE_START
        if np.any(t[to_target] - TARGET_TABLE_START >= n_target):
            raise FormatError(f"corrupt {where} (a target beyond the target table)")
        if np.any(t[~to_target].astype(np.int64) + n_input > n_index):
            raise FormatError(f"corrupt {where} (a target beyond the index table)")

    live = index["input"] != NO_SYMBOL
    if np.any(index["input"][live] >= n_input):
        raise FormatError("corrupt index table (a symbol outside the input alphabet)")
    check_targets(index["target"][live], "index table")
    body = ~((target["input"] == NO_SYMBOL) & (target["output"] == NO_SYMBOL))  # the rest mark states
    if np.any(target["input"][body] >= n_symbols) or np.any(target["output"][body] >= n_symbols):
        raise FormatError("corrupt target table (a symbol outside the alphabet)")
    check_targets(target["target"][body], "target table")


__all__ = ["FormatError", "OlLayout", "read_layout", "check_tables", "is_flag", "HFST_MAGIC", "OL_TYPES"]
