"""Every TN-... rule the tournament names is written in
docs/rules/tournaments.md (the scanner of tests/docs/test_rule_ids.py)."""

from __future__ import annotations

from tests.docs.test_rule_ids import ROOT, RULES, documented, rule_ids, sources


def test_every_rule_the_tournament_names_is_in_its_rules_doc() -> None:
    text = (RULES / "tournaments.md").read_text()
    used = set().union(
        *(rule_ids(p) for p in sources(ROOT / "domain" / "cardroom" / "domain" / "tournament"))
    )
    assert {"TN-ROUND", "TN-SEED", "TN-RESULT"} <= used
    assert sorted(r for r in used if not documented(r, text)) == []
