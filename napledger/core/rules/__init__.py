"""Pure rules: the variant model, presets, loading and scoring. No I/O beyond reading TOML."""

from napledger.core.rules.load import list_presets, load_preset, load_rules, rules_from_dict
from napledger.core.rules.model import Bid, Rules, Settings
from napledger.core.rules.scoring import Deal, score_deal

__all__ = [
    "Bid",
    "Deal",
    "Rules",
    "Settings",
    "list_presets",
    "load_preset",
    "load_rules",
    "rules_from_dict",
    "score_deal",
]
