"""Serving beyond this machine needs a password (issue 12); loopback stays password-free."""
import logging

import pytest

import constants
import nexus_ark
from nexus_ark import PasswordRequired, is_loopback, launch_auth


@pytest.mark.parametrize("host", [
    "127.0.0.1", "127.0.0.2", "127.255.255.254", "localhost", "LocalHost", "::1", "[::1]",
    "::ffff:127.0.0.1",
])
def test_loopback_hosts(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", [
    "0.0.0.0", "::", "[::]", "192.168.1.20", "10.0.0.5", "fe80::1", "::ffff:192.168.1.20",
    "128.0.0.1", "my-laptop.local", "localhost.example.com", "",
])
def test_hosts_the_network_may_reach(host):
    assert not is_loopback(host)


def test_loopback_needs_no_password():
    assert launch_auth("127.0.0.1", "nexus", "") is None


def test_a_given_password_is_used_on_any_host():
    assert launch_auth("0.0.0.0", "nexus", "s3cret pass") == ("nexus", "s3cret pass")
    assert launch_auth("127.0.0.1", "mina", "s3cret pass") == ("mina", "s3cret pass")


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20"])
def test_no_password_off_loopback_is_refused(host):
    with pytest.raises(PasswordRequired, match=constants.PASSWORD_ENV):
        launch_auth(host, "nexus", "")


def test_serving_on_the_network_without_a_password_exits_before_serving(tmp_path, monkeypatch, caplog):
    monkeypatch.delenv(constants.PASSWORD_ENV, raising=False)
    data_dir = tmp_path / "data"
    with caplog.at_level(logging.ERROR, logger="nexus_ark"):
        code = nexus_ark.main(["--host", "0.0.0.0", "--port", "1", "--data-dir", str(data_dir)])
    assert code != 0
    assert not data_dir.exists()  # the service never started
    assert "Refusing to serve on 0.0.0.0 without a password" in caplog.text
    assert constants.PASSWORD_ENV in caplog.text


def test_default_user_and_user_option():
    assert nexus_ark.parser().parse_args([]).user == constants.DEFAULT_AUTH_USER
    assert nexus_ark.parser().parse_args(["--user", "mina", "serve"]).user == "mina"
