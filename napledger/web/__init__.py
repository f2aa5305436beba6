"""`napledger serve`: the table's screen, over the same calls as the command line."""
