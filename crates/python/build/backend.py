"""The build of the maxconnect4 wheel: maturin's, with the maxconnect4
command built first.

maturin puts one Rust library into a wheel (a module, or a command, not
both: PyO3/maturin#368). The module links only the game and the search;
the command is the program the README runs, with its referee, server and
sandbox. So this backend builds the command with cargo, puts it where
maturin's `data` setting takes the wheel's scripts from, and hands the rest
to maturin: pip installs those scripts to the environment's bin, as it does
ruff's. Every other hook is maturin's own.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import maturin
from maturin import *  # noqa: F401,F403 (the hooks this file does not change)

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "crates" / "python" / "maxconnect4.data" / "scripts"


def _build_command() -> None:
    """Builds the maxconnect4 command and copies it to SCRIPTS. cargo reads
    CARGO_BUILD_TARGET, which a cross build sets for maturin too, so the
    command is built for the wheel's system."""
    cargo = os.environ.get("CARGO", "cargo")
    if shutil.which(cargo) is None:
        sys.exit("error: building maxconnect4 needs Rust's cargo on the PATH (https://rustup.rs)")
    built = subprocess.run(
        [cargo, "build", "--release", "--locked", "--bin", "maxconnect4", "--message-format=json-render-diagnostics"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    executables = [
        message["executable"]
        for message in map(json.loads, built.stdout.splitlines())
        if message.get("reason") == "compiler-artifact" and message.get("executable")
    ]
    if not executables:
        sys.exit("error: cargo built no maxconnect4 executable")
    SCRIPTS.mkdir(parents=True, exist_ok=True)
    shutil.copy2(executables[-1], SCRIPTS / Path(executables[-1]).name)


def build_sdist(sdist_directory, config_settings=None):
    # maturin's source distribution holds the module's crate and its path
    # dependencies, not the command's crate nor the opening books the
    # search embeds: a wheel could not be built from it.
    sys.exit("error: maxconnect4 is distributed as wheels, or built from a clone of its repository (pip install .)")


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    # maturin checks that the data folder exists before the command is built.
    SCRIPTS.mkdir(parents=True, exist_ok=True)
    return maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    SCRIPTS.mkdir(parents=True, exist_ok=True)
    return maturin.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _build_command()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _build_command()
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)
