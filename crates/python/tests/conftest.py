"""What the tests share: the maxconnect4 command installed beside the module."""

import os
import shutil
import subprocess
import sys
import sysconfig

import pytest


@pytest.fixture(scope="session")
def command():
    """The maxconnect4 command of this environment, as the wheel installed it."""
    found = shutil.which("maxconnect4", path=sysconfig.get_path("scripts"))
    assert found, "the wheel installs the maxconnect4 command beside the module"
    return found


@pytest.fixture(scope="session")
def run(command):
    """Runs the command with these words; its standard output, checked."""

    def run(*words):
        done = subprocess.run([command, *words], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


def pytest_report_header(config):
    return f"python: {sys.executable}"
