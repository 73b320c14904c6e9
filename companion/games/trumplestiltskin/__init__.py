"""Trumplestiltskin: 3 to 5 players against the Gnome.

Its folder holds all the game adds: its pure rules (``rules``), its web package
(``web``) and its rules texts for players (``texts/<lang>.md``). Importing its
rules imports nothing of the web.
"""
