"""Filtering the entries reloads the review pane once, and not at all when the entry stays selected."""

from __future__ import annotations

from tests.qt.conftest import count_review_loads


def test_a_filter_keeping_the_entry_does_not_reload_the_review_pane(window, scored_ws, monkeypatch):
    window.open_workspace(scored_ws.path)
    window.open_entries(["good", "poor"])
    page = window.entries_page
    assert page.select_entry("e1")
    loads = count_review_loads(monkeypatch)
    page.search.setText("dog")  # e1 "I see the dog" stays
    page.apply_filter()
    assert page.current_entry_id() == "e1" and page.count_label.text() == "2 of 5 entries"
    assert loads == []
    page.search.setText("walks")  # e1 goes: the first row shown is loaded once
    page.apply_filter()
    assert page.model.rowCount() == 1 and loads == [page.current_entry_id()] == ["e2"]
    assert "she walks" in page.review.text.toPlainText()
    page.search.setText("zzqq-none")
    page.apply_filter()
    assert page.model.rowCount() == 0 and loads == ["e2"]
    assert "Select an entry to review it." in page.review.text.toPlainText()
