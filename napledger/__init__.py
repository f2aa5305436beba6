"""napledger: score and money ledger for the card game Napoleon (Nap)."""

__version__ = "0.1.0"
