"""Trefeltromp: the tarot betting game.

Its folder holds all the game adds: its pure rules (``rules``), its web package
(``web``) and its rules texts for players (``texts/<lang>.md``). Importing its
rules imports nothing of the web.
"""
