"""How the runner reports a fault of the user's code: the headline is one line naming the
problem and the fix; the detail (a traceback) follows it on stderr."""

import traceback

# Exit status of the runner when the user's module is at fault (kopt's usage/environment code).
USER_CODE_EXIT = 2


class UserCodeProblem(Exception):
    """The user's module (kernel, setup or reference) is at fault; kopt exits 2 with it."""

    def __init__(self, headline, detail=""):
        super().__init__(headline)
        self.headline = headline
        self.detail = detail


def exception_detail(error):
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


def describe_exception(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


class EnvironmentProblem(UserCodeProblem):
    """The machine or kopt's own files are at fault (no GPU, a harness library that cannot run
    the job); kopt exits 2 with it, as for a usage or environment error."""
