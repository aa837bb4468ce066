"""OPT020: two consumers of one PRNG key draw the same random bits. The harness ran the
statements that make and split the key, and each consumer recorded the key it was given
(verify/key_plan.py), its call run under JAX's key-reuse checker: the original misbehaves when
the checker raised (typed keys) or two consumers were given the same key (raw keys the checker
cannot see); the fixed code passes when neither happens."""

from typing import Any

from optlint.verify.checks import Misbehaved, Unbuildable


def keys_differ(values: dict[str, Any]) -> str:
    recorded = values["keys"]
    shown = values["probe"]["consumers"]
    keys = [(tag, key_bits(key)) for tag, key in recorded.records]
    if len(keys) < 2:
        raise Unbuildable(f"only {len(keys)} of the key's consumers ran")
    ran = sum(error is None for _, error in recorded.calls)
    calls = (f"; the consumer calls themselves: {ran} of {len(recorded.calls)} ran here"
             if ran < len(recorded.calls) else "")
    # JAX's own key-reuse checker, where it could see the keys (typed keys): its KeyReuseError.
    checked = [tag for tag, error in recorded.calls if error == "KeyReuseError"]
    checker = (f"JAX's key-reuse checker (jax_debug_key_reuse) raised KeyReuseError at "
               f"`{shown[checked[0]]}`" if checked else "")
    if checked:
        calls = ""  # the consumer the checker stopped did not run, as it should not
    for later, (tag, bits) in enumerate(keys):
        for earlier_tag, earlier_bits in keys[:later]:
            if bits.shape == earlier_bits.shape and (bits == earlier_bits).all():
                first, second = shown[earlier_tag], shown[tag]
                what = (f"`{first}` was given the same key twice" if values["probe"]["same_call"]
                        else
                        f"`{first}` and `{second}` were given the same key")
                raise Misbehaved(f"{checker + ', and ' if checker else ''}{what} (key data "
                                 f"{bits.ravel().tolist()[:4]}): they draw the same random "
                                 f"bits{calls}")
    if checker:
        raise Misbehaved(f"{checker}: a consumer was given a key already consumed")
    return f"the {len(keys)} consumers were given {len(keys)} different keys{calls}"


def key_bits(key: Any) -> Any:
    """The key's raw uint32 data, for a typed key (`jax.random.key`) or a raw one alike."""
    import jax
    import numpy as np

    try:
        return np.asarray(jax.random.key_data(key))
    except Exception:  # noqa: BLE001 - not a key array: compare what it is
        return np.asarray(key)
