"""Behavioural checks that rules declare (`RuntimeCheck.probe = "module:function"`).

These modules run inside the verifier's harness subprocess only, never in the linter: the harness
carries the text of the modules its findings name and runs each in a namespace holding checks.py's
globals. So a probe module imports jax, optax and equinox inside its functions, takes checks.py's
helpers with one `from optlint.verify.checks import ...` (dropped when the harness is built), and
has no `from __future__` import. A probe gets the role values (`values["optimizer"]`,
`values["params"]`, ...) and returns a one-line detail, or raises `Misbehaved` for a silent hazard.
"""
