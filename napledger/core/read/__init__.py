"""The read model: how the evening reads, decided once for every front end.

The terminal, `--json`, the page and the workbook draw the same things from here: the
board (`board`), the timeline of deals, joins and leaves, closes and carried pots with the
running balances (`timeline`), the settlement of a session or an evening, per currency
(`settlement`), the rule and setting notes (`notes`), the labels and the sentences the
evening says (`said`), and the scored deals everything is read from (`history`). Pure:
the service fills it, the front ends lay it out, and it calls none of them.
"""
