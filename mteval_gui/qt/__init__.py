"""The Qt user interface. The only package that imports PySide6."""
