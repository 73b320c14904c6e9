"""Tromplemond: four players, 26 cards, a secret vote every round.

Its folder holds all the game adds: its pure rules (``rules``), its web package
(``web``), what of the store only it keeps (``store``: the interrogation timer and the
vote's stages) and its rules texts for players (``texts/<lang>.md``). Importing its
rules imports nothing of the web.
"""
