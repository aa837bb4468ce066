"""optlint: a linter for JAX training code written with Equinox and Optax."""

__version__ = "0.1.0"
