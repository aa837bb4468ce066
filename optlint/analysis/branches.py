"""Which `return`s of a function can run, when some `if` tests are known: a factory choosing by
its configuration (`if cfg.solver == "lbfgs": return optax.lbfgs()`) called with a configuration
whose field is known (the class default `"lbfgs"`) returns what that branch returns.

A test is known when it compares values the inference knows as literals (`==`, `!=`, `in`,
`not in` over a literal tuple), or is a known bool, or `not` of one; anything else keeps both
branches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from optlint.analysis.values import LiteralValue, SequenceValue, Value

Evaluate = Callable[[cst.BaseExpression], Value]


def live_returns(function: cst.FunctionDef, evaluate: Evaluate) -> set[int] | None:
    """The ids of the return values that can run; None when no test was known (all can)."""
    walker = _Walker(evaluate)
    walker.block(function.body.body if isinstance(function.body, cst.IndentedBlock) else ())
    return walker.live if walker.decided else None


class _Walker:
    def __init__(self, evaluate: Evaluate) -> None:
        self.evaluate = evaluate
        self.live: set[int] = set()
        self.decided = False

    def block(self, statements: Sequence[cst.BaseStatement | cst.BaseSmallStatement]) -> bool:
        """Walk statements in order; True when the block always returns (what follows is dead)."""
        # `any` stops at the first statement that returns: what follows it never runs.
        return any(self.statement(statement) for statement in statements)

    def statement(self, statement: cst.CSTNode) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Return):
                    if small.value is not None:
                        self.live.add(id(small.value))
                    return True
                if isinstance(small, cst.Raise):
                    return True
            return False
        if isinstance(statement, cst.If):
            return self.branch(statement)
        if isinstance(statement, (cst.For, cst.While, cst.With, cst.Try)):
            self.nested(statement)  # a loop or handler may run or not: its returns may
            return False
        return False

    def branch(self, node: cst.If) -> bool:
        test = _truth(node.test, self.evaluate)
        orelse = node.orelse
        if test is not None:
            self.decided = True
        taken = test is not False and self.block(_body(node.body))
        if test is True:
            return taken
        if orelse is None:
            skipped = False
        elif isinstance(orelse, cst.If):
            skipped = self.branch(orelse)
        else:
            skipped = self.block(_body(orelse.body))
        if test is False:
            return skipped
        return taken and skipped

    def nested(self, node: cst.CSTNode) -> None:
        for child in node.children:
            if isinstance(child, (cst.BaseStatement, cst.BaseSmallStatement)):
                self.statement(child)
            elif isinstance(child, (cst.IndentedBlock, cst.BaseSuite)):
                self.block(_body(child))
            else:
                self.nested(child)


def _body(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement | cst.BaseSmallStatement]:
    if isinstance(suite, cst.IndentedBlock):
        return suite.body
    if isinstance(suite, cst.SimpleStatementSuite):
        return suite.body
    return ()


def known_truth(test: cst.BaseExpression, evaluate: Evaluate) -> bool | None:
    """Whether `test` holds, where the values it reads are known: the tests `_truth` knows, plus
    numeric comparisons (`cfg.weight_decay > 0`) and the truth of a known literal (`if
    cfg.max_grad_norm:` with the default 1.0 or None)."""
    known = _truth(test, evaluate)
    if known is not None:
        return known
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        left = _number(evaluate(test.left))
        right = _number(evaluate(test.comparisons[0].comparator))
        compare = _ORDERINGS.get(type(test.comparisons[0].operator))
        if left is None or right is None or compare is None:
            return None
        return compare(left, right)
    value = evaluate(test)
    if isinstance(value, LiteralValue) and value.kind == "none":
        return False
    number = _number(value)
    return None if number is None else number != 0


_ORDERINGS: dict[type, Callable[[float, float], bool]] = {
    cst.GreaterThan: lambda a, b: a > b, cst.GreaterThanEqual: lambda a, b: a >= b,
    cst.LessThan: lambda a, b: a < b, cst.LessThanEqual: lambda a, b: a <= b,
}


def _number(value: Value) -> float | None:
    if isinstance(value, LiteralValue) and value.kind == "number":
        try:
            return float(value.text.replace("_", ""))
        except ValueError:
            return None
    return None


def _truth(test: cst.BaseExpression, evaluate: Evaluate) -> bool | None:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _truth(test.expression, evaluate)
        return None if inner is None else not inner
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        left = _literal(evaluate(test.left))
        if left is None:
            return None
        if isinstance(target.operator, (cst.In, cst.NotIn)):
            options = evaluate(target.comparator)
            if not isinstance(options, SequenceValue):
                return None
            texts = [_literal(item) for item in options.items]
            if any(text is None for text in texts):
                return None
            found = left in texts
            return found if isinstance(target.operator, cst.In) else not found
        right = _literal(evaluate(target.comparator))
        if right is None:
            return None
        if isinstance(target.operator, cst.Equal):
            return left == right
        if isinstance(target.operator, cst.NotEqual):
            return left != right
        return None
    value = evaluate(test)
    if isinstance(value, LiteralValue) and value.kind == "bool":
        return value.text == "True"
    return None


def _literal(value: Value) -> tuple[str, str] | None:
    """A literal, comparable by kind and text (strings by their text, numbers as written)."""
    if isinstance(value, LiteralValue) and value.kind == "string" and value.text == "":
        return None  # an f-string is read as "": its text is not known
    if isinstance(value, LiteralValue) and value.kind in ("string", "bool", "none"):
        return value.kind, value.text
    if isinstance(value, LiteralValue) and value.kind == "number":
        try:
            return "number", repr(float(value.text.replace("_", "")))
        except ValueError:
            return None
    return None
