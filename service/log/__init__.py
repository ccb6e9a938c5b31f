"""The transparency log: the sequencer, signed checkpoints and proofs, and the log as a client sees it."""
