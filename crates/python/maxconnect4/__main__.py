"""``python -m maxconnect4``: the ``maxconnect4`` command that the wheel installs."""

import os
import sys
import sysconfig


def main() -> None:
    name = "maxconnect4.exe" if os.name == "nt" else "maxconnect4"
    for scheme in (sysconfig.get_default_scheme(), "posix_user" if os.name != "nt" else "nt_user"):
        command = os.path.join(sysconfig.get_path("scripts", scheme), name)
        if os.path.isfile(command):
            os.execv(command, [command, *sys.argv[1:]])
    sys.exit(f"error: the maxconnect4 command is not installed beside this module (looked in {command})")


if __name__ == "__main__":
    main()
