"""pokerlab: learning to play imperfect-information games, poker first."""

__version__ = "0.1.0"
