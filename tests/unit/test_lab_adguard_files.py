"""The lab's AdGuard Home configuration, credential and variant action, without starting anything."""

from __future__ import annotations

import stat

import bcrypt
import pytest

from kneeboard.lab import actions, adguard, namespace
from kneeboard.targets.schemas import TargetCreate


@pytest.mark.parametrize(("config", "querylog"), [("querylog_off", False), ("querylog_on", True)])
def test_each_configuration_forwards_to_unbound_without_limits_or_lists(tmp_path, config, querylog):
    conf = adguard.config("10.77.0.2", tmp_path, config, "10.77.0.2:53")
    assert conf["schema_version"] == 34  # v0.107.79's LastSchemaVersion: read as written, never migrated
    assert conf["dns"]["ratelimit"] == 0 and conf["dns"]["upstream_dns"] == ["10.77.0.2:53"]
    assert conf["dns"]["bind_hosts"] == ["10.77.0.2"] and conf["dns"]["port"] == 5301
    assert conf["filters"] == [] and conf["filtering"]["filters_update_interval"] == 0
    assert conf["querylog"]["enabled"] is querylog and conf["statistics"]["enabled"] is True
    assert conf["http"]["address"] == "10.77.0.2:3000" and conf["tls"]["port_https"] == 0
    assert not any(conf["clients"]["runtime_sources"].values())


def test_the_generated_user_has_a_bcrypt_hash_and_a_root_only_password(tmp_path):
    conf = adguard.config("10.77.0.2", tmp_path, "querylog_off", "10.77.0.2:53")
    password = adguard.password(tmp_path)
    assert len(password) >= 20 and stat.S_IMODE((tmp_path / "password").stat().st_mode) == 0o600
    [user] = conf["users"]
    assert user["name"] == "kneeboard" and bcrypt.checkpw(password.encode(), user["password"].encode())
    assert adguard.password(tmp_path) == password  # kept: the same credential across restarts


def test_the_action_takes_a_configuration_name_only():
    listed = next(a for a in actions.list_actions() if a["name"] == "lab.adguard_config")
    assert listed["type"] == "enum" and listed["choices"] == ["querylog_off", "querylog_on"]
    assert listed["default"] == "querylog_off"
    for bad in ("querylog", 1, None):
        with pytest.raises(actions.ActionError, match="expected one of querylog_off, querylog_on"):
            actions.validate_setting("lab.adguard_config", bad)


def test_lab_adguard_is_registered_with_its_configuration_in_the_notes():
    body = TargetCreate(**next(t for t in namespace.targets() if t["name"] == "lab-adguard"))
    assert (body.kind, body.host, body.port) == ("dns", "10.77.0.2", 5301)
    assert "ratelimit 0" in body.notes and "10.77.0.2:53" in body.notes and "no update checks" in body.notes
    assert all(f"{name}:" in body.notes for name in adguard.CONFIGS)


def test_a_lab_without_a_built_adguard_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(adguard, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(adguard, "BINARY", tmp_path / "AdGuardHome")
    assert "run scripts/install-deps.sh" in adguard.missing_reason()
    (tmp_path / "build-error.txt").write_text("Go 1.26.0 is too old; AdGuard Home v0.107.79 needs Go >= 1.26.6\n")
    spec = next(s for s in namespace._service_specs(tmp_path, None) if s["name"] == "lab-adguard")
    record = namespace._ensure_service(spec, None, tmp_path)
    assert record["pid"] is None and record["config"] == "querylog_off"
    assert record["error"] == "AdGuard Home v0.107.79 not built: Go 1.26.0 is too old; AdGuard Home v0.107.79 needs Go >= 1.26.6"
