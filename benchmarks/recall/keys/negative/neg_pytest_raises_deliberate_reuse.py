# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/jax-ml/jax/issues/192
# shown: the test that reuses a key on purpose inside pytest.raises passes; prints OK
# style: pytest test module checking that the key-reuse guard fires
import jax
import pytest


@pytest.fixture(autouse=True)
def key_reuse_checks():
    with jax.debug_key_reuse(True):
        yield


def test_reusing_a_key_is_reported():
    key = jax.random.key(0)
    with pytest.raises(jax.errors.KeyReuseError):
        jax.random.uniform(key)
        jax.random.uniform(key)


if __name__ == "__main__":
    with jax.debug_key_reuse(True):
        test_reusing_a_key_is_reported()
    print("OK")
