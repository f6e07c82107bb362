"""Compliance index and repair effectiveness (LYSS §2.5)."""

from __future__ import annotations

from collections import Counter

import pytest

from mteval_gui.domain.card import LanguageCard
from mteval_gui.scoring.metrics.compliance import ComplianceMetric, check, placeholders
from tests.scoring.metric_helpers import context, item, run_metric


def test_placeholder_kinds():
    text = ("Hello {name}, you have %d messages <b>now</b> {{count}} %(user)s $1 %s %1$s "
            "{n, plural, one {# item} other {# items}} {0}")
    assert placeholders(text) == Counter({
        "{name}": 1, "%d": 1, "<b>": 1, "</b>": 1, "{{count}}": 1, "%(user)s": 1, "$1": 1, "%s": 1, "%1$s": 1,
        "{n, plural}": 1, "{0}": 1,
    })


def test_icu_messages_compare_by_name_and_type():
    src = "{n, plural, one {# file} other {# files}}"
    out = "{n, plural, one {# fichier} other {# fichiers}}"
    assert placeholders(src) == placeholders(out)


def test_multiset_equality():
    assert check("{a} {a}", "{a} {b}", quotes=None, has_case=None)["variables"] == 0.0
    assert check("{b} et {a}", "{a} and {b}", quotes=None, has_case=None)["variables"] == 1.0
    r = check("{a}", "{a} {a}", quotes=None, has_case=None)
    assert r["variables"] == 0.0 and r["detail"]["missing_placeholders"] == ["{a}"]


def test_index_weights_quotes_and_casing():
    card_quotes = ['"', "“", "”"]
    r = check("Il a dit « bonjour »", 'He said "hello"', quotes=card_quotes, has_case=True)
    assert (r["variables"], r["quotes"], r["casing"]) == (1.0, 0.0, 1.0)
    assert r["index"] == pytest.approx(0.8)
    r = check("ᓀᐦᐃᔭᐍᐏᐣ Cree", "Cree", quotes=card_quotes, has_case=False)
    assert r["casing"] == 0.0 and r["index"] == pytest.approx(0.8)
    r = check("ᓀᐦᐃᔭᐍᐏᐣ", "{x}", quotes=card_quotes, has_case=False)
    assert r["index"] == pytest.approx(0.4)


def test_metric_raw_final_and_repair_effectiveness():
    card = LanguageCard(code="fra", name="French", quotes=["«", "»"])
    items = [
        item(0, "Hello {name}", "x", "Bonjour {name}", raw_predicted="Bonjour"),          # fixed
        item(1, 'Say "hi"', "x", 'Dis "salut"', raw_predicted='Dis "salut"'),             # not fixed (quotes)
        item(2, "Plain", "x", "Simple"),                                                  # raw = final, clean
    ]
    per, cs = run_metric(ComplianceMetric(), items, context(card=card))
    assert [p.value for p in per] == [pytest.approx(1.0), pytest.approx(0.8), pytest.approx(1.0)]
    assert [p.values["compliance_index_raw"] for p in per] == [
        pytest.approx(0.4),
        pytest.approx(0.8),
        pytest.approx(1.0),
    ]
    assert cs.values["compliance_index"] == pytest.approx(2.8 / 3)
    assert cs.values["compliance_index_raw"] == pytest.approx(2.2 / 3)
    assert cs.values["repair_effectiveness"] == pytest.approx(0.5)


def test_repair_effectiveness_null_without_raw_violations():
    per, cs = run_metric(ComplianceMetric(), [item(0, "a", "b", "c")])
    assert cs.values["repair_effectiveness"] is None
    assert cs.values["compliance_index"] == 1.0
