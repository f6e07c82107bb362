"""What a plugin package declares: the object its ``mteval_gui.standards`` entry point names.

A plugin package (the bundled ``eval_standards`` is one) adds language standards (metric
classes that language cards name, optionally the cards themselves) and benchmark suites. It
registers one entry point in the group ``mteval_gui.standards`` whose object is a
:class:`StandardsPlugin` (or a mapping of the same fields)::

    [project.entry-points."mteval_gui.standards"]
    xyz_standard = "xyz_standard.plugin:PLUGIN"

    # xyz_standard/plugin.py
    PLUGIN = StandardsPlugin(name="xyz_standard", packages=["xyz_standard"], cards="cards")

The declaration is data: nothing in it is imported until a card's metric or a suite is used.
``messages`` names a folder of translations of the messages the plugin's metrics and suites
write in their details (:mod:`mteval_gui.domain.messages`): one ``LOCALE.json`` per language,
an object mapping each English template to its translation.

Only classes under ``packages`` may be named by cards (and by the plugin's suites), so a card
file can never make the application import a module outside the installed plugins.
"""

from __future__ import annotations

from pydantic import ConfigDict, Field

from mteval_gui.domain.base import DomainModel

MODULE_PATTERN = r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$"
NAME_PATTERN = r"^[A-Za-z_][\w-]*$"
SUITE_NAME_PATTERN = r"^[a-z][a-z0-9_-]*$"


class _Model(DomainModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SuiteDecl(_Model):
    """A benchmark suite a plugin provides (scored by ``mteval bench NAME …`` and the GUI)."""

    name: str = Field(pattern=SUITE_NAME_PATTERN,
                      description="Short lower-case name: command name and stored runs' suite (e.g. 'ewebench')")
    title: str = Field(min_length=1, description="Name shown to users (e.g. 'ÈwéBench')")
    python_name: str = Field(description="'package.module:attribute' of the suite object, imported on first use")
    description: str = ""


class StandardsPlugin(_Model):
    """A plugin package's declaration (see the module docstring)."""

    name: str = Field(pattern=NAME_PATTERN, description="The plugin's name; equal to its entry point's name")
    packages: list[str] = Field(min_length=1, description="Module prefixes whose classes cards may name")
    cards: str | None = Field(default=None, description="Folder of language cards, relative to the folder of the "
                                                        "module that holds this declaration")
    suites: list[SuiteDecl] = Field(default_factory=list)
    messages: str | None = Field(default=None, description="Folder of message catalogs (``fr.json``: English "
                                                           "template -> translation), relative to the folder of "
                                                           "the module that holds this declaration")
    description: str = ""
