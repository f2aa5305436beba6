"""The pure core: the rules, scoring, the ledger, settling up and the evening's history.

Nothing here touches a terminal, a database, a web request or a workbook (the `layers`
contract in pyproject.toml keeps it so); every rule and check of the game lives here.
"""
