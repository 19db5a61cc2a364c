"""The rules the web app states come from the server's (pages/web_rules.py)."""

import json

import pytest
from django.core.management import CommandError, call_command

from pages.web_rules import RULES_FILE, rendered, web_rules


def test_the_web_apps_rules_file_is_the_servers_rules():
    assert RULES_FILE.read_text() == rendered(), "run manage.py export_web_rules"


def test_the_rules_are_the_ones_the_server_enforces():
    rules = web_rules()

    assert rules["daily_goals"] == [10, 20, 30, 50]
    assert rules["streak"] == {"freeze_every": 7, "max_freezes": 2}
    assert rules["comment_max_length"] == 5000
    assert rules["display_name_max_length"] == 60
    assert set(rules["sync_batch"]) == {"progress_events", "check_answers", "reviews"}


def test_the_check_fails_on_a_stale_file_and_writing_mends_it(tmp_path, monkeypatch):
    stale = tmp_path / "rules.json"
    stale.write_text(json.dumps({"daily_goals": [10, 20]}))
    monkeypatch.setattr("pages.management.commands.export_web_rules.RULES_FILE", stale)

    with pytest.raises(CommandError, match="out of date"):
        call_command("export_web_rules", "--check")
    call_command("export_web_rules")

    assert stale.read_text() == rendered()
    call_command("export_web_rules", "--check")
