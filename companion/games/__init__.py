"""The games the app ships, one folder each: ``companion/games/<game>/``.

A game's folder holds all it adds: its pure rules (``rules.py``: no Flask, no SQLAlchemy),
its web package (``web/``: its flow, views and forms, its templates and its stylesheet),
its rules texts for players (``texts/<lang>.md``: ``en.md`` the reference) and what of
the store only it uses. The registry (``companion.rules.games``) lists the games by name;
``docs/adding-a-game.md`` says how a game is added.
"""
