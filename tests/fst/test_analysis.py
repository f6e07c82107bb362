"""Parsing of analysis strings: flag diacritics, preverbs, reduplication, lemma, tags."""

from mteval_gui.fst.analysis import Analysis, WordAnalysis, parse_analysis, strip_flags


def test_flag_diacritics_are_removed():
    raw = ("@U.order.cnj@@P.joiner.hyphen@PV/e+@R.joiner.hyphen@@U.wici.NULL@ayâw+V+AI@U.wici.NULL@"
           "@U.order.cnj@+Cnj@U.person.NULL@+1Sg@D.frag.FRAG@@D.cnj.CC@@D.joiner.NULL@")
    assert strip_flags(raw) == "PV/e+ayâw+V+AI+Cnj+1Sg"
    assert strip_flags("a@b") == "a@b"  # a literal '@' that is not a flag stays


def test_preverbs_lemma_tags():
    a = parse_analysis("PV/e+PV/ki+nipâw+V+AI+Cnj+1Sg")
    assert a.preverbs == ("PV/e", "PV/ki")
    assert a.lemma == "nipâw"
    assert a.tags == ("V", "AI", "Cnj", "1Sg")
    assert a.prefix_tags == ()
    assert a.pos == "V"
    assert a.tag_set == frozenset({"PV/e", "PV/ki", "V", "AI", "Cnj", "1Sg"})


def test_reduplication_and_other_prefix_tags():
    a = parse_analysis("RdplW+pimohtêw+V+AI+Ind+3Sg")
    assert a.lemma == "pimohtêw"
    assert a.reduplication == ("RdplW",)
    b = parse_analysis("Err/Orth+PV/e+RdplS+nipâw+V+AI+Cnj+3Sg")
    assert (b.prefix_tags, b.preverbs, b.lemma) == (("Err/Orth", "RdplS"), ("PV/e",), "nipâw")


def test_particles_hyphenated_lemmas_and_slash_tags():
    assert parse_analysis("namôya+Ipc") == Analysis("namôya+Ipc", "namôya", ("Ipc",))
    a = parse_analysis("nôhtê-nipâw+V+AI+Ind+1Sg")
    assert a.lemma == "nôhtê-nipâw" and a.preverbs == ()
    b = parse_analysis("wâpamêw+V+TA+Ind+3Sg+4Sg/PlO")
    assert b.tags[-1] == "4Sg/PlO"
    assert parse_analysis("maskwa").lemma == "maskwa"


def test_word_analysis_json_round_trip():
    w = WordAnalysis("Atim,", "atim", (parse_analysis("atim+N+A+Sg"),))
    d = w.to_json()
    assert d == {"token": "Atim,", "form": "atim", "accepted": True, "analyses": ["atim+N+A+Sg"]}
    assert WordAnalysis.from_json(d) == w
    assert WordAnalysis("x", "x").accepted is False
