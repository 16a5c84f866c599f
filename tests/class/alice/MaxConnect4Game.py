# The module beside the script. spied() checks the player's sandbox when a
# file spy.txt beside it lists what to check (tests/it/students.rs).
import os

def play(rows, player):
    for column in range(7):
        for row in range(5, -1, -1):
            if rows[row][column] == "0":
                rows[row][column] = player
                return

def spied():
    if not os.path.exists("spy.txt"):
        return []
    problems = []
    allowed = {"PATH", "HOME", "TMPDIR", "PWD", "LANG", "LANGUAGE"}
    for line in open("spy.txt").read().splitlines():
        kind, _, what = line.partition(" ")
        if kind == "unseen" and os.path.exists(what):
            problems.append("sees " + what)
        elif kind == "has":
            name, _, value = what.partition("=")
            allowed.add(name)
            if os.environ.get(name) != value:
                problems.append("no " + name)
        elif kind == "nowhere":
            for pid in [entry for entry in os.listdir("/proc") if entry.isdigit()]:
                for part in ["cmdline", "environ"]:
                    try:
                        if what.encode() in open("/proc/%s/%s" % (pid, part), "rb").read():
                            problems.append("%s in /proc/%s/%s" % (what, pid, part))
                    except OSError:
                        pass
    extra = [name for name in os.environ if name not in allowed and not name.startswith("LC_")]
    if extra:
        problems.append("variables " + ",".join(sorted(extra)))
    listing = os.listdir("/proc/self/fd")
    descriptors = [fd for fd in listing if int(fd) > 2 and os.path.exists("/proc/self/fd/" + fd)]
    if len(descriptors) > 1:
        problems.append("descriptors " + ",".join(descriptors))
    return problems
