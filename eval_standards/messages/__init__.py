"""Translations of the messages the bundled standards write in their details (``LOCALE.json``)."""
