"""``python -m maxconnect4``: the ``maxconnect4`` command that the wheel installs."""

import os
import shutil
import sys
import sysconfig


def find_command():
    """The command the wheel put in this environment's scripts folder (or the
    user's, after ``pip install --user``), else the one on the PATH."""
    name = "maxconnect4.exe" if os.name == "nt" else "maxconnect4"
    folders = [sysconfig.get_path("scripts")]
    user_scheme = f"{os.name}_user" if os.name == "nt" else "posix_user"
    if user_scheme in sysconfig.get_scheme_names():
        folders.append(sysconfig.get_path("scripts", user_scheme))
    for folder in folders:
        command = os.path.join(folder, name)
        if os.path.isfile(command) and os.access(command, os.X_OK):
            return command
    return shutil.which(name)


def main() -> None:
    command = find_command()
    if command is None:
        sys.exit("error: the maxconnect4 command is not installed beside this module, nor on the PATH")
    os.execv(command, [command, *sys.argv[1:]])


if __name__ == "__main__":
    main()
