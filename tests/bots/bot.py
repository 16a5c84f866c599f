#!/usr/bin/env python3
"""A one-move player for the referee's tests, misbehaving in a chosen way.

Usage: bot.py BEHAVIOUR IN OUT [TAG]

Reads the board file IN and writes its answer to OUT, like the one-move
mode of any student's program, except as BEHAVIOUR says:

  valid        plays the leftmost column with room
  exit1        plays like valid, then exits with status 1
  hang         never answers (after making the file `running` in its folder)
  wait         makes the file `running` in its folder, waits until the file
               TAG exists, then plays like valid
  slow         sleeps 3 s, then plays like valid
  crash        raises an exception before writing anything
  garbage      writes text that is not a board
  nothing      exits without writing anything
  full         overwrites the top piece of the leftmost full column with its own
  two          adds two pieces
  change       plays like valid and also turns an opponent's piece into its own
  turn         plays like valid but leaves the turn line naming itself
  fork         starts a child that keeps running, then plays like valid
  escape       starts a grandchild in a session of its own (double fork and
               setsid) that keeps running and holds the output pipes, then
               plays like valid
  escape-hang  escapes like escape, then never answers
  trap         plays like valid, then fills its own folder with directories,
               pipes and links at the names the referee might use next
  out-dir      makes OUT a directory
  out-link     writes a valid board elsewhere and makes OUT a link to it
  out-fifo     makes OUT a named pipe
  link         plays like valid, and puts links to the file TAG at its input
               and at every name the referee might give its next input
  sabotage     plays like valid after removing every other player's folder
               it can find and writing a file into the referee's folder
  log          plays like valid after appending garbage to the file TAG and
               to games.jsonl in the working directory of every ancestor
  hog          allocates memory 16 MB at a time, touching it, up to 1 GB
  swarm        starts processes that sleep, up to 300
  fill         writes a file in its folder 1 MB at a time, up to 200 MB
  spin         spins on both of two processes for up to 60 s, then plays like valid
  stuff        writes a file in /tmp and one in /dev/shm 1 MB at a time, up
               to 64 MB each or until a write fails, prints `stuff FOLDER:
               N MB` for each, then plays like valid
  spill        on its first move writes 64 files of 1 MB in its folder, holds
               them 30 s and removes them, then plays like valid
  spy          plays like valid after trying what a hostile player would, and
               printing a line `spy WHAT: open ...` or `spy WHAT: closed
               (...)` for each: its capabilities, unmounting what hides the
               referee's folder (also from a user namespace of its own), its
               opponent's folder, /etc/shadow, and the log, the captured
               output and Unix sockets `sock` in the folders named by the
               environment variable SPY_ON (separated by `:`)

TAG, when given, is in the command line of every process the bot starts, so
that a test can find them all (inside a sandbox a process cannot tell its
own process id as the test sees it).
"""

import ctypes
import os
import shutil
import socket
import sys
import time


def read(path):
    lines = open(path).read().split()
    return [list(row) for row in lines[:6]], lines[6]


def write(path, rows, turn):
    with open(path, "w") as f:
        f.write("".join("".join(row) + "\n" for row in rows) + turn + "\n")


def lowest_empty(rows, column):
    """The row index (0 is the top) of the lowest empty cell, or None."""
    for row in range(5, -1, -1):
        if rows[row][column] == "0":
            return row
    return None


def play(rows, me, skip=0):
    """Drops a piece of player `me` in the leftmost column with room (after
    skipping `skip` such columns)."""
    columns = [c for c in range(7) if lowest_empty(rows, c) is not None]
    column = columns[skip]
    rows[lowest_empty(rows, column)][column] = me


def escape(told):
    """Leaves a grandchild running in a session of its own, holding the
    output pipes, and returns once it runs."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(told, b".")
            time.sleep(3600)
        os._exit(0)


def spy():
    """Prints what this player can reach that it should not."""
    libc = ctypes.CDLL(None, use_errno=True)

    def probe(what, action):
        try:
            found = action()
            # An empty listing is an empty folder hiding what is there.
            print(f"spy {what}: open {found}" if found else f"spy {what}: closed (empty)", flush=True)
        except OSError as error:
            print(f"spy {what}: closed ({error.strerror})", flush=True)

    def call(result):
        if result != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, os.strerror(errno))
        return "(it worked)"

    with open("/proc/self/status") as f:
        effective = next(line.split()[1] for line in f if line.startswith("CapEff:"))
    print(f"spy capabilities: CapEff {effective}", flush=True)
    referee = os.path.dirname(os.getcwd())
    probe("umount", lambda: call(libc.umount2(referee.encode(), 2)))
    if os.fork() == 0:
        # CLONE_NEWUSER | CLONE_NEWNS: full powers over namespaces of its own.
        try:
            call(libc.unshare(0x10000000 | 0x00020000))
            probe("nested umount", lambda: call(libc.umount2(referee.encode(), 2)))
        except OSError as error:
            print(f"spy nested umount: closed ({error.strerror})", flush=True)
        os._exit(0)
    os.wait()
    mine = os.path.basename(os.getcwd())
    probe("opponent", lambda: [name for name in os.listdir(referee) if name not in (mine, "maxconnect4")])
    probe("shadow", lambda: open("/etc/shadow").read(10))
    for folder in filter(None, os.environ.get("SPY_ON", "").split(":")):
        probe(f"log in {folder}", lambda: open(os.path.join(folder, "games.jsonl")).read(10))
        probe(f"outputs in {folder}", lambda: os.listdir(os.path.join(folder, "games.output")))
        probe(f"socket in {folder}", lambda: socket.socket(socket.AF_UNIX).connect(os.path.join(folder, "sock")))


def around(outfile):
    """The folder of OUT and the ply number the referee put in its name."""
    folder, name = os.path.split(outfile)
    return folder, int(name.split("-")[1].split(".")[0])


def main():
    behaviour, infile, outfile = sys.argv[1:4]
    tag = sys.argv[4] if len(sys.argv) > 4 else None
    rows, me = read(infile)
    other = "2" if me == "1" else "1"

    if behaviour in ("fork", "escape", "escape-hang"):
        # The parent waits until its descendant runs, so that the test knows
        # it was there to be killed.
        started, told = os.pipe()
        if behaviour == "fork":
            if os.fork() == 0:
                os.write(told, b".")
                time.sleep(3600)
                os._exit(0)
        else:
            escape(told)
        os.read(started, 1)
        print(f"{behaviour}: a descendant is running", flush=True)
        if behaviour == "escape-hang":
            behaviour = "hang"

    if behaviour in ("wait", "hang"):
        # Tells a test watching the player's folder that the bot runs.
        open("running", "w").close()
    if behaviour == "wait":
        # The test names an empty file and writes in it to let the bot go
        # on: a player sees the files its command names, not the folder
        # around them.
        while os.path.getsize(tag) == 0:
            time.sleep(0.02)
    elif behaviour == "hang":
        time.sleep(3600)
    elif behaviour == "slow":
        time.sleep(3)
    elif behaviour == "crash":
        raise RuntimeError("this bot crashes on purpose")
    elif behaviour == "garbage":
        with open(outfile, "w") as f:
            f.write("I resign, good game!\n")
        return
    elif behaviour == "nothing":
        return
    elif behaviour == "full":
        column = next(c for c in range(7) if lowest_empty(rows, c) is None)
        rows[0][column] = me
        write(outfile, rows, other)
        return
    elif behaviour == "two":
        play(rows, me)
        play(rows, me, skip=1)
        write(outfile, rows, other)
        return
    elif behaviour in ("out-dir", "out-link", "out-fifo"):
        play(rows, me)
        if behaviour == "out-dir":
            os.mkdir(outfile)
        elif behaviour == "out-link":
            write("elsewhere.txt", rows, other)
            os.symlink(os.path.abspath("elsewhere.txt"), outfile)
        else:
            os.mkfifo(outfile)
        return
    elif behaviour == "hog":
        # Bounded, so that a referee that keeps no limit is not brought down.
        held = []
        for _ in range(64):
            held.append(bytearray(16 << 20))
    elif behaviour == "swarm":
        for _ in range(300):
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)
    elif behaviour == "spin":
        child = os.fork()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            pass
        if child == 0:
            os._exit(0)
        os.wait()
    elif behaviour == "stuff":
        for folder in ("/tmp", "/dev/shm"):
            written = 0
            try:
                with open(os.path.join(folder, "stuffing"), "wb") as f:
                    while written < 64:
                        f.write(b"x" * (1 << 20))
                        f.flush()
                        written += 1
            except OSError as error:
                print(f"stuff {folder}: {error}", file=sys.stderr, flush=True)
            print(f"stuff {folder}: {written} MB", flush=True)
    elif behaviour == "spill":
        # Each file within the largest a player may write, all of them past
        # its folder's limit, and gone by the end of the turn.
        if sum(cell != "0" for row in rows for cell in row) < 2:
            for number in range(64):
                with open(f"spill{number}", "wb") as f:
                    f.write(b"x" * (1 << 20))
            time.sleep(30)
            for number in range(64):
                os.remove(f"spill{number}")
    elif behaviour == "fill":
        with open("filler", "wb") as f:
            for _ in range(200):
                f.write(b"x" * (1 << 20))
                f.flush()
    elif behaviour == "spy":
        spy()
    elif behaviour == "sabotage":
        here = os.getcwd()
        for top in {os.environ.get("TMPDIR", "/tmp"), "/tmp", os.path.dirname(here)}:
            for root, folders, _ in os.walk(top):
                for folder in folders:
                    path = os.path.join(root, folder)
                    if "maxconnect4" in path and not here.startswith(path) and path != here:
                        shutil.rmtree(path, ignore_errors=True)
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(tag)), "sabotaged"), "w") as f:
                f.write("sabotaged\n")
        except OSError as error:
            print(f"sabotage: {error}", flush=True)

    play(rows, me)
    if behaviour == "change":
        row, column = next((r, c) for r in range(6) for c in range(7) if rows[r][c] == other)
        rows[row][column] = me
    write(outfile, rows, me if behaviour == "turn" else other)

    if behaviour == "trap":
        folder, ply = around(outfile)
        for later in range(ply + 1, 44):
            for name in (f"in-{later:02}", f"out-{later:02}"):
                os.mkdir(os.path.join(folder, f"{name}.txt"))
                os.mkfifo(os.path.join(folder, f"{name}-fifo.txt"))
                os.symlink("/", os.path.join(folder, f"{name}-link.txt"))
    elif behaviour == "link":
        folder, ply = around(outfile)
        os.remove(infile)
        os.symlink(tag, infile)
        for later in range(ply + 1, 44):
            for name in (f"in-{later:02}.txt", f"out-{later:02}.txt"):
                os.symlink(tag, os.path.join(folder, name))
    elif behaviour == "log":
        targets = [tag]
        pid = os.getppid()
        while pid > 1:
            targets.append(f"/proc/{pid}/cwd/games.jsonl")
            try:
                with open(f"/proc/{pid}/stat") as f:
                    pid = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                break
        for target in targets:
            try:
                with open(target, "a") as f:
                    f.write("garbage from a player\n")
            except OSError as error:
                print(f"log: {target}: {error}", flush=True)
    if behaviour == "exit1":
        sys.exit(1)


main()
