"""pokerlab.interop."""
