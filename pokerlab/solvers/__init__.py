"""pokerlab.solvers."""
