"""pokerlab.evaluation."""
