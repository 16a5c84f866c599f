"""The harness that plays a Kaggle ConnectX agent for the maxconnect4 referee.

The referee runs `python3 -c HARNESS AGENT.py` in a copy of the agent's
folder, in its sandbox, and speaks to it in one JSON object a line (the
protocol is written down in connectx.rs, beside this file). The agent is
loaded as Kaggle's loader (kaggle_environments 1.33.2, agent.py) loads it,
once per game, and called once per move in this one process, so that its
globals and function attributes live from one move to the next.

Written for Python 3.6 and later: it must run on whatever Python a
student's folder names.
"""

import json
import os
import sys
import traceback

# Kaggle keeps 10,000 characters of an agent's stdout and of its stderr a
# step (maxLogLength); the referee keeps the tail of what reaches stderr.
LOG_LIMIT = 10000


class Struct(dict):
    """Kaggle's Struct: a dict whose keys are attributes too (obs.board)."""

    def __init__(self, **entries):
        entries = {k: v for k, v in entries.items() if k != "items"}
        dict.__init__(self, entries)
        self.__dict__.update(entries)

    def __setattr__(self, attr, value):
        self.__dict__[attr] = value
        self[attr] = value


def structify(o):
    """Kaggle's structify: dicts made Structs, lists copied, all the way down."""
    if isinstance(o, list):
        return [structify(o[i]) for i in range(len(o))]
    elif isinstance(o, dict):
        return Struct(**{k: structify(v) for k, v in o.items()})
    return o


class Bounded(object):
    """The agent's sys.stdout and sys.stderr: its prints go to the real
    stderr, never to the protocol's stream, at most LOG_LIMIT characters a
    move; the rest is counted and dropped."""

    def __init__(self, stream):
        self.stream = stream
        self.left = LOG_LIMIT
        self.dropped = 0

    def write(self, text):
        text = str(text)
        kept = text[: max(self.left, 0)]
        self.left -= len(kept)
        self.dropped += len(text) - len(kept)
        if kept:
            self.stream.write(kept)
            self.stream.flush()
        return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        self.stream.flush()

    def isatty(self):
        return False

    def writable(self):
        return True

    def fileno(self):
        return self.stream.fileno()

    @property
    def encoding(self):
        return self.stream.encoding

    def renew(self):
        """A new move: says what was dropped, and gives a new allowance."""
        if self.dropped:
            self.stream.write("\n[%d more characters printed by the agent were dropped]\n" % self.dropped)
            self.stream.flush()
        self.left, self.dropped = LOG_LIMIT, 0


def own_streams():
    """The protocol's streams, private copies of descriptors 0 and 1. The
    agent's descriptor 1 then is stderr (what a C extension or a child
    prints lands there) and its descriptor 0 is empty (input() ends)."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    os.dup2(2, 1)
    return requests, replies


def print_traceback():
    """The exception being handled, without the harness's own frames: its
    last line is what the referee's verdict quotes."""
    kind, value, trace = sys.exc_info()
    while trace is not None and trace.tb_frame.f_code.co_filename == "<string>":
        trace = trace.tb_next
    sys.__stderr__.flush()
    traceback.print_exception(kind, value, trace, file=sys.__stderr__)
    sys.__stderr__.flush()


def load(path):
    """Kaggle's get_last_callable: the file's source compiled and run in a
    fresh dict, its folder on sys.path meanwhile, and the LAST callable it
    defines is the agent (an alias, one defined in an if or try, or one it
    imported). The sys.path.pop() is Kaggle's, literally."""
    with open(path, "r", encoding="utf-8") as file:
        raw = file.read()
    code_object = compile(raw, path, "exec")
    env = {}
    sys.path.append(os.path.dirname(path))
    exec(code_object, env)
    sys.path.pop()
    found = [v for v in env.values() if callable(v)]
    return found[-1] if found else None


def reply_to(action):
    """The reply for what the agent returned: a Python int (Kaggle's schema
    wants an integer and refuses a bool; numpy's integers are no int
    there), else what it was."""
    if isinstance(action, int) and not isinstance(action, bool) and -(2**31) <= action < 2**31:
        return {"action": int(action)}
    kind = type(action)
    name = kind.__qualname__ if kind.__module__ == "builtins" else kind.__module__ + "." + kind.__qualname__
    try:
        shown = repr(action)
    except Exception:
        shown = "(no repr)"
    return {"returned": {"value": shown[:80], "type": name}}


def main():
    requests, replies = own_streams()

    def reply(message):
        replies.write(json.dumps(message) + "\n")
        replies.flush()

    # `python3 -c` puts the working directory first on sys.path; Kaggle's
    # loader adds the agent's folder last, and only while loading.
    if sys.path and sys.path[0] == "":
        del sys.path[0]
    path = sys.argv[1]
    output = Bounded(sys.__stderr__)
    sys.stdout = sys.stderr = output
    try:
        agent = load(path)
    except BaseException:
        output.renew()
        print_traceback()
        agent = None
        reply({"error": "load"})
        return
    if agent is None:
        output.renew()
        sys.__stderr__.write("the file defines no callable: Kaggle plays the last one a file defines\n")
        sys.__stderr__.flush()
        reply({"error": "load"})
        return
    output.renew()
    reply({"ready": getattr(agent, "__name__", type(agent).__name__)})
    configuration = {}
    for line in requests:
        message = json.loads(line)
        if message == "end":
            return
        if "configuration" in message:
            configuration = message["configuration"]
            continue
        # Fresh Structs each move, as Kaggle's Agent.act makes them.
        config = dict(configuration, __raw_path__=path)
        args = [structify(message["observation"]), structify(config)]
        if hasattr(agent, "__code__") and hasattr(agent.__code__, "co_argcount"):
            args = args[: agent.__code__.co_argcount]
        try:
            action = agent(*args)
        except BaseException:
            output.renew()
            print_traceback()
            reply({"error": "agent"})
            continue
        output.renew()
        reply(reply_to(action))


try:
    main()
except BrokenPipeError:
    pass
# At once, whatever threads the agent left running: the game is over.
sys.__stderr__.flush()
os._exit(0)
