"""The keys of task A rating, shared by the desktop review pane and the offline review pack.

One table, as data: the desktop ratings panel (:mod:`mteval_gui.qt.ratings`, the entries page's
navigation) builds its shortcuts from it, and the review pack embeds it as JSON (block
``#review-keys``) that ``pack.js`` reads, so a reviewer's keystrokes record the same values in
both. Keys are named as the browser's ``KeyboardEvent.key`` names them (letters lower case);
the desktop maps the names to Qt key sequences.

Behaviour of the actions (the scales are adequacy, then fluency):

- ``rate`` (1-5): record the value on the focused scale, then focus the next scale (on the last
  one, the focus stays there);
- ``next_scale`` (Tab) / ``previous_scale`` (Shift+Tab): move the focus without rating; it stops
  at the ends (no wrap-around), so "3 4", "3 Tab 4" and "Tab 4 Shift+Tab 3" all record
  adequacy 3 and fluency 4;
- ``next_unrated`` (Enter): go to the next entry not rated yet;
- ``flag`` (F), ``undo`` (Ctrl+Z), ``redo`` (Ctrl+Shift+Z);
- in a text field (the note, the corrected translation), ``leave_field`` (Enter or Esc): keep
  what was typed (it is saved as a new version if it changed) and give the keyboard back to
  the ratings, so the next "1 1 Enter" rates the entry and moves on instead of typing "11"
  into the note.

Keys only one interface has stay with it: the desktop's error-span keys (S, M, C, Delete, 0)
and Alt+Up/Down, the pack's arrow keys, Ctrl+Y and D (the rating keys go to the whole document's
rating and back; the desktop's *Rate the document* is Ctrl+Shift+D).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

RATING_SCALES = ("adequacy", "fluency")
SCALE_WRAPS = False  # next_scale on the last scale (previous_scale on the first) keeps the focus there

ACTIONS = ("rate", "next_scale", "previous_scale", "next_unrated", "flag", "undo", "redo", "leave_field")


@dataclass(frozen=True)
class KeyBinding:
    key: str  # KeyboardEvent.key name: "1", "Tab", "Enter", "Escape", "f", "z"
    action: str  # one of ACTIONS
    value: int | None = None  # the rating of a ``rate`` key
    shift: bool = False
    ctrl: bool = False  # Ctrl (Cmd on macOS)


RATING_KEYS: tuple[KeyBinding, ...] = (
    *(KeyBinding(str(v), "rate", v) for v in range(1, 6)),
    KeyBinding("Tab", "next_scale"),
    KeyBinding("Tab", "previous_scale", shift=True),
    KeyBinding("Enter", "next_unrated"),
    KeyBinding("f", "flag"),
    KeyBinding("z", "undo", ctrl=True),
    KeyBinding("z", "redo", ctrl=True, shift=True),
)

FIELD_KEYS: tuple[KeyBinding, ...] = (
    KeyBinding("Enter", "leave_field"),
    KeyBinding("Escape", "leave_field"),
)


def move_scale(active: str, step: int) -> str:
    """The scale focused after moving ``step`` from ``active`` (:data:`SCALE_WRAPS` decides the ends)."""
    i = RATING_SCALES.index(active) + step
    if SCALE_WRAPS:
        return RATING_SCALES[i % len(RATING_SCALES)]
    return RATING_SCALES[min(max(i, 0), len(RATING_SCALES) - 1)]


def keymap_data() -> dict[str, Any]:
    """The key map as plain JSON data (what the review pack embeds)."""
    return {"scales": list(RATING_SCALES), "wrap": SCALE_WRAPS,
            "keys": [asdict(b) for b in RATING_KEYS], "field_keys": [asdict(b) for b in FIELD_KEYS]}
