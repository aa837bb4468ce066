"""The OPT020 finding for a method that hands out keys it keeps (`key_handouts.py`)."""

from __future__ import annotations

from optlint.analysis.key_handouts import KeptHandout
from optlint.context import RuleContext
from optlint.rule_helpers.key_lines import line_of
from optlint.rules.base import Finding


def kept_handout_finding(ctx: RuleContext, found: KeptHandout) -> Finding:
    handed = ctx.code(found.handed)
    kept = f" at {line_of(ctx, found.kept)}"
    message = (f"`{found.owner}.{found.method}` hands out the keys `{handed}` and keeps the "
               f"same keys in `self.{found.attribute}`{kept}: the next call hands them out "
               f"again, and whatever draws from them draws the same random numbers")
    return Finding(found.handed, message,
                   roles={"handed": found.handed, "kept_in": found.kept.targets[0].target},
                   fix_title=(f"Keep only the keys not handed out (`self.{found.attribute} = "
                              f"...[amount:]`)"))
