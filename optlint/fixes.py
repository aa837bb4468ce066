"""Edits the rules' fixes make to a call, kept here so that no rule writes its own copy.

`with_keyword`: the call with one more keyword argument (`inject_hyperparams(...,
hyperparam_dtype=jnp.float32)`); the fix's import and its bound name come from
`RuleContext.import_alias` and `FixPlan.imports`.

`rearranged`: a call's arguments in another order (or some left out), each with its own
comments. Fixes that reorder `optax.chain(...)` parts or drop one must not lose or misplace
comments: in

    optax.chain(
        # the optimizer
        optax.adam(lr),  # main optimizer
        optax.clip_by_global_norm(1.0),
    )

`# the optimizer` and `# main optimizer` belong to `optax.adam(lr)` and move with it. libcst keeps
a comment at the end of an argument's line, and the comment lines before the next argument, in the
whitespace after the argument's comma; the comment lines before the first argument in the
whitespace after `(`. Each position ("slot") keeps its layout (line breaks, indentation); what an
argument owns (its value, its line's comment, the comment lines above it) moves to its new slot.
The comments of an argument left out become comment lines above the argument that follows it.

`code_in_place`: the code of a replacement node as written where the old one is.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from optlint.context import RuleContext
from optlint.diagnostics import Location
from optlint.edits import line_starts, offset
from optlint.records import record


@record
class _Owned:
    """What one argument owns: its node, the comment ending its line, the comment lines above."""

    arg: cst.Arg
    trailing: cst.TrailingWhitespace | None
    above: tuple[cst.EmptyLine, ...]


def rearranged(call: cst.Call, order: Sequence[int]) -> cst.Call | None:
    """`call` with its arguments `order` (indices into its arguments; some may be left out),
    every comment with its argument; None when a comment would have no line to go to (a slot
    written on one line), or the arguments are not plain positional ones."""
    args = list(call.args)
    if not order or any(arg.keyword is not None or arg.star for arg in args):
        return None
    owned = [_Owned(arg, _trailing(_after(arg)), _above(args, number, call))
             for number, arg in enumerate(args)]
    left_out = [owned[number] for number in range(len(args)) if number not in order]
    # A left-out argument's comments go above the argument that followed it (or the last one).
    carried: dict[int, list[cst.EmptyLine]] = {}
    for item in left_out:
        number = args.index(item.arg)
        following = next((n for n in order if n > number), order[-1])
        carried.setdefault(following, []).extend(_as_lines(item))
    units = [owned[number] for number in order]
    above = [tuple(carried.get(number, ())) + owned[number].above for number in order]
    original_last = args[-1]
    slots = [_after(args[number]) for number in range(len(units) - 1)] + [_after(original_last)]
    new_args = []
    for position, unit in enumerate(units):
        slot = slots[position]
        next_above = above[position + 1] if position + 1 < len(units) else None
        filled = _fill(slot, unit.trailing, next_above)
        if filled is None:
            return None
        if position == len(units) - 1:
            comma = original_last.comma
            if isinstance(comma, cst.Comma):
                comma = comma.with_changes(whitespace_after=filled)
                new_args.append(unit.arg.with_changes(
                    comma=comma, whitespace_after_arg=original_last.whitespace_after_arg))
            else:
                new_args.append(unit.arg.with_changes(comma=cst.MaybeSentinel.DEFAULT,
                                                      whitespace_after_arg=filled))
        else:
            template = args[position]
            comma = template.comma if isinstance(template.comma, cst.Comma) else cst.Comma()
            new_args.append(unit.arg.with_changes(
                comma=comma.with_changes(whitespace_after=filled),
                whitespace_after_arg=template.whitespace_after_arg))
    before = _fill_before(call.whitespace_before_args, above[0])
    if before is None:
        return None
    return call.with_changes(args=new_args, whitespace_before_args=before)


def _after(arg: cst.Arg) -> cst.BaseParenthesizableWhitespace:
    """The whitespace after an argument: after its comma, or before `)` for a last one."""
    if isinstance(arg.comma, cst.Comma):
        return arg.comma.whitespace_after
    return arg.whitespace_after_arg


def _trailing(whitespace: cst.BaseParenthesizableWhitespace) -> cst.TrailingWhitespace | None:
    if isinstance(whitespace, cst.ParenthesizedWhitespace) and whitespace.first_line.comment:
        return whitespace.first_line
    return None


def _above(args: list[cst.Arg], number: int, call: cst.Call) -> tuple[cst.EmptyLine, ...]:
    before = call.whitespace_before_args if number == 0 else _after(args[number - 1])
    if isinstance(before, cst.ParenthesizedWhitespace):
        return tuple(before.empty_lines)
    return ()


def _as_lines(item: _Owned) -> list[cst.EmptyLine]:
    """A left-out argument's comments, as comment lines (indented where they land)."""
    lines = list(item.above)
    if item.trailing is not None and item.trailing.comment is not None:
        lines.append(cst.EmptyLine(indent=True, comment=item.trailing.comment))
    return lines


def _fill(slot: cst.BaseParenthesizableWhitespace, trailing: cst.TrailingWhitespace | None,
          next_above: tuple[cst.EmptyLine, ...] | None) -> cst.BaseParenthesizableWhitespace | None:
    """`slot` holding `trailing` at its line's end and `next_above` as its comment lines
    (None: the slot's own, before `)`)."""
    if isinstance(slot, cst.ParenthesizedWhitespace):
        first = trailing if trailing is not None else cst.TrailingWhitespace(
            newline=slot.first_line.newline)
        lines = slot.empty_lines if next_above is None else next_above
        lines = [line.with_changes(whitespace=_column(slot, line)) for line in lines]
        return slot.with_changes(first_line=first, empty_lines=lines)
    if trailing is not None or next_above:
        return None  # one line here: a comment cannot follow its argument
    return slot


def _column(slot: cst.ParenthesizedWhitespace, line: cst.EmptyLine) -> cst.SimpleWhitespace:
    """A moved comment line indented as the argument it sits above."""
    return slot.last_line if line.indent == slot.indent else line.whitespace


def _fill_before(before: cst.BaseParenthesizableWhitespace,
                 above: tuple[cst.EmptyLine, ...]) -> cst.BaseParenthesizableWhitespace | None:
    if isinstance(before, cst.ParenthesizedWhitespace):
        return before.with_changes(
            empty_lines=[line.with_changes(whitespace=_column(before, line)) for line in above])
    return None if above else before


def code_in_place(ctx: RuleContext, old: cst.CSTNode, new: cst.CSTNode) -> str:
    """The code of `new`, written where `old` is: `code_for_node` alone writes the comment lines
    and continuation lines of a call inside a block without the block's indentation."""
    before = ctx.module.code
    after = ctx.module.deep_replace(old, new)
    assert isinstance(after, cst.Module)
    span = ctx.positions()[old]
    starts = line_starts(before)
    start = offset(starts, Location(span.start.line, span.start.column + 1))
    end = offset(starts, Location(span.end.line, span.end.column + 1))
    return after.code[start:len(after.code) - (len(before) - end)]


def with_keyword(call: cst.Call, name: str, code: str) -> cst.Call:
    """`call` with `name=code` added as its last argument (`f(a,` keeps its trailing comma)."""
    args = list(call.args)
    if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:
        args[-1] = args[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    args.append(cst.Arg(cst.parse_expression(code), keyword=cst.Name(name),
                        equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                              cst.SimpleWhitespace(""))))
    return call.with_changes(args=args)
