"""High Card's flow, as data: look, decide, over."""

from __future__ import annotations

from engine.phases import OVER, Phase, over_phase

from .setup import offer_look, say_ready
from .turns import fold, offer_decide, stay
from .views import view_over, view_play

PHASES: dict[str, Phase] = {
    "look": Phase(offer=offer_look, rules={"ready": say_ready}, view=view_play),
    "decide": Phase(offer=offer_decide, rules={"stay": stay, "fold": fold}, view=view_play),
    OVER: over_phase(view_over),
}
