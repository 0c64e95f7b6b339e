"""The one error tree every layer raises; the CLI maps each kind to an exit code."""

from __future__ import annotations

from typing import Any, ClassVar


class PbemError(Exception):
    """Base of every error the CLI reports as one `error: ...` line."""

    exit_code: ClassVar[int] = 1


class IllegalMoveError(PbemError):
    """A well-formed move the rules do not allow now; the message names the rule."""

    exit_code = 1


class UsageError(PbemError):
    """A command was given something it cannot use: unknown game, bad option, bad name."""

    exit_code = 2


class MoveSyntaxError(UsageError):
    """Move text the game's grammar does not read; the message shows the text and the forms."""


class GameFileError(PbemError):
    """The game file is not sound: unreadable, not a pbem file, bad signature, broken chain."""

    exit_code = 3


class IdentityError(PbemError):
    """A key or identity is missing, corrupt, too open, or its passphrase is wrong."""

    exit_code = 4


class FileAccessError(PbemError):
    """A file could not be read or written, or would be overwritten."""

    exit_code = 5


class EquivocationError(PbemError):
    """A seat signed two different entries for the same place; both entries are the proof."""

    exit_code = 6

    def __init__(self, message: str, evidence: tuple[dict[str, Any], ...]) -> None:
        super().__init__(message)
        self.evidence = evidence


class MailContentError(GameFileError):
    """A message that cannot carry a game's entries: truncated, altered, or not what it says."""


class MailTransportError(PbemError):
    """The mail server could not be reached, refused the login, or refused or dropped a message."""

    exit_code = 7


class BusyError(PbemError):
    """Another pbem command held a file this one had to change for longer than it waits; nothing
    was changed, and the same command run again once the other is done goes through."""

    exit_code = 8


class MailUnreadableError(MailContentError):
    """A message the mail parser cannot read (a header it fails on, a part it cannot decode):
    pbem cannot tell what it carries, so it is skipped rather than refused."""


# The reader of pbem's output stopped early (`pbem log game.toml | head`): what a shell reports
# for SIGPIPE, not a failure of pbem's.
PIPE_CLOSED = 141

# Every exit code pbem gives and what it means; `pbem --help` lists them from here.
EXIT_CODES: dict[int, str] = {
    0: "success",
    IllegalMoveError.exit_code: "a move the rules refuse",
    UsageError.exit_code: "usage: bad arguments, unknown game, seat or option",
    GameFileError.exit_code: "integrity failure: the game file is unreadable, tampered with, unsound",
    IdentityError.exit_code: "identity: missing or corrupt key, wrong passphrase, wrong key for a seat",
    FileAccessError.exit_code: "file access: missing file, file already exists, cannot write",
    EquivocationError.exit_code: "equivocation: a player signed two different entries for one decision",
    MailTransportError.exit_code: "mail: the server could not be reached or refused; the game is unchanged",
    BusyError.exit_code: "busy: another pbem command held a file too long; nothing changed",
    PIPE_CLOSED: "the program reading pbem's output stopped early",
}
