"""pokerlab.policy."""
