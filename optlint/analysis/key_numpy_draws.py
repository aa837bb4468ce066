"""Whether two NumPy generators seeded alike draw the same values (`unlike_numpy_draws`).

JAX's key-reuse checker does not see NumPy, so issue #25's labelling rule asks of a NumPy pair
only whether the two draws give identical or prefix-identical values. Two generators made from
one seed do so where they draw with one method under the same distribution parameters (the
size aside, which only cuts the stream), or permute alike (`shuffle`, `permutation`: the same
permutation for arrays of one length). With other parameters, or another method, they share no
value. Measured with numpy 2.4.6 (`tests/test_prng_keys_numpy_draws.py` runs it), for
`RandomState` and `default_rng` seeded with 7: `beta(1, 30)` and `beta(1, 17/3)` share none of
100 values, `normal(0, 1)` and `normal(0, 2)` none of 5, `uniform` and `normal` none of 5;
`normal(0, 1, size=3)` is `normal(0, 1, size=5)[:3]`; two 10-item lists shuffle alike.

Only a draw made on the seeded generator itself is read (`RandomState(seed).beta(a, b)`): a
generator kept under a name may draw anywhere. A method missing from the table is not judged.
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

# By method: the distribution parameters, in their positional order (the size comes next).
# A method permuting what it is given (`shuffle(x)`) has none: it draws alike for one length.
DISTRIBUTION_PARAMETERS: dict[str, tuple[str, ...]] = {
    "beta": ("a", "b"), "normal": ("loc", "scale"), "uniform": ("low", "high"),
    "gamma": ("shape", "scale"), "binomial": ("n", "p"), "exponential": ("scale",),
    "poisson": ("lam",), "randint": ("low", "high"), "integers": ("low", "high"),
    "standard_normal": (), "random": (), "random_sample": (), "choice": ("a",),
    "shuffle": (), "permutation": (),
}


def unlike_numpy_draws(first: cst.Call, second: cst.Call,
                       parents: Mapping[int, cst.CSTNode]) -> str:
    """Why two NumPy seedings (`RandomState(seed)` twice) are not shown to draw the same
    values ('' where they are, or where their draws are not read here): each drawn from
    straight away, by different methods or under different parameters as written."""
    drawn_a, drawn_b = _drawn_on(first, parents), _drawn_on(second, parents)
    if drawn_a is None or drawn_b is None:
        return ""
    (name_a, call_a), (name_b, call_b) = drawn_a, drawn_b
    if name_a != name_b:
        return f"`{name_a}` and `{name_b}` draw different values from one seed"
    parameters = DISTRIBUTION_PARAMETERS[name_a]
    if any(_given(call_a, i, name) != _given(call_b, i, name)
           for i, name in enumerate(parameters)):
        return f"`{name_a}` under other parameters draws different values from one seed"
    return ""


def _drawn_on(seeding: cst.Call, parents: Mapping[int, cst.CSTNode]
              ) -> tuple[str, cst.Call] | None:
    """The method a generator is drawn from where it is made (`RandomState(s).beta(...)`),
    when the table knows it."""
    attribute = parents.get(id(seeding))
    call = parents.get(id(attribute)) if attribute is not None else None
    if (not isinstance(attribute, cst.Attribute) or attribute.value is not seeding
            or not isinstance(call, cst.Call) or call.func is not attribute
            or attribute.attr.value not in DISTRIBUTION_PARAMETERS):
        return None
    return attribute.attr.value, call


def _given(call: cst.Call, position: int, name: str) -> str | None:
    """The code given for a parameter, by position or keyword (None: left at its default)."""
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    if any(arg.star for arg in call.args):
        return "*"  # unpacked: not read
    if position < len(positional):
        value: cst.BaseExpression = positional[position].value
    else:
        found = next((arg.value for arg in call.args
                      if arg.keyword is not None and arg.keyword.value == name), None)
        if found is None:
            return None
        value = found
    return cst.Module([]).code_for_node(value)
