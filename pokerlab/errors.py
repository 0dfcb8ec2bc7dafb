"""Exception types shared across pokerlab.

Every error raised for bad user input derives from :class:`PokerlabError` (and from
``ValueError``), so callers can catch one type and the message always names what was wrong.
"""

from __future__ import annotations


class PokerlabError(ValueError):
    """Base class for errors caused by bad input."""


class CardError(PokerlabError):
    """A card, card list or board could not be parsed or is inconsistent."""


class RangeError(PokerlabError):
    """A range in standard notation could not be parsed."""


class PolicyFileError(PokerlabError):
    """A saved policy file is malformed, of an unknown version or fails its checksum."""


class ConfigError(PokerlabError):
    """A configuration value is out of range or inconsistent."""


class HandHistoryError(PokerlabError):
    """A hand history could not be read or is not a legal hand."""


class BetSizeError(PokerlabError):
    """A bet size or bet-set description is malformed or illegal."""


class AgentError(PokerlabError):
    """An agent spec is unknown/malformed, or an agent returned an illegal action."""
