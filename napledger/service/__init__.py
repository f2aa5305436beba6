"""The service: the database and its transactions, the one session service every front end
calls (`napledger.service.api`, see its docstring), the live kept history, and every JSON
document. Importing this package loads nothing heavy, so a command that never opens the
database does not pay for it.
"""
