"""Short rule summaries for the ``rules`` command, one per game, translatable.

Each summary is a few lines meant to remind players how a game goes, not the
full rules. A game without a summary here still gets its title, player count
and options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from bot.views.i18n import N_

SUMMARIES: Final[Mapping[str, tuple[str, ...]]] = {
    "tyaga": (
        N_("Double-six set, 2 to 6 players, 7 tiles each (fewer with 5 or 6)."),
        N_("Match a tile to either open end of the line."),
        N_(
            "Nothing fits? Draw from the boneyard until something does; pass only when it is empty."
        ),
        N_("The first to play out his hand wins the deal; in a block, the lowest pip count."),
        N_("The deal's winner scores the pips left in everyone else's hands."),
        N_("The first to reach the target (100 by default) wins the match."),
    ),
    "kozel": (
        N_("Double-six set, 2 to 4 players: 7 tiles each for two, 5 for three or four."),
        N_("The holder of the highest double opens the first deal with it."),
        N_("Match tiles to the ends; two doubles that fit both ends may go down at once."),
        N_("Nothing fits? Draw until something does; pass only when the boneyard is empty."),
        N_("After a deal everyone adds the pips left in his hand; [0|0] counts 25."),
        N_("A score sheet opens only with a deal worth 13 or more."),
        N_("Whoever reaches 101 is the goat and loses; the lowest total wins."),
    ),
    "baghdad": (
        N_("Two players, 11 tiles each, double-six set. Tiles are camels in caravans."),
        N_("A turn: add a camel to the open caravan (or start one), or draw a tile."),
        N_("After drawing you may play only the drawn tile; no camel costs you a point."),
        N_("Thieves [3|3] [6|0] [5|1] [4|2] steal a caravan whose ends show their numbers."),
        N_("A pair of handcuff doubles recovers a caravan stolen by [6|0], [5|1] or [4|2]."),
        N_("A thief or handcuffs go down only right after your own camel."),
        N_(
            "Points: one for each camel in the caravans you own, plus what is left in the "
            "other hand."
        ),
        N_("By default the match is 6 deals; the higher total wins."),
    ),
    "three_guns": (
        N_("Three players, a set of double-five plus [6|6]; 7 tiles each, no drawing."),
        N_("The holder of [6|6] (the cardinal) swaps it for the spare tile and leads."),
        N_("A tile fits an end when its touching half and the end add up to six."),
        N_(
            "Musketeers [1|5] [2|4] [3|3] may be laid across any end; "
            "[0|0] only across, and then the next tile must mirror the tile behind it."
        ),
        N_(
            "Cannot play? Pass. The deal's winner takes a token; "
            "the first to hold 4 tokens wins the match."
        ),
    ),
}
