"""The database layer: tables, engine and transactions, migrations, and the session API.

Front ends use `napledger.store.api` only (see its docstring); importing this package
loads nothing heavy, so a command that never opens the database does not pay for it.
"""
