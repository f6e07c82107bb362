"""Kalaallisut (kal) evaluation standard for mteval-gui: its language card and a linter."""
