"""The one error the rules layer raises."""


class RuleError(ValueError):
    """A record (or an action) breaks the rules.

    The message is written for a player: it names the round, the player(s)
    and the card or number at fault, e.g.
    ``round 3: 10♦ is in both Sam's and Nick's hands``.
    """
