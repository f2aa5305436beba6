"""The database layer: tables, engine, migrations, the codec, and the repository that loads
and saves sessions. It persists and decides nothing; front ends reach it through
`napledger.service`.
"""
