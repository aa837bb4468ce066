"""Pipelines that draw from the key they are called with, as data for `key_consumers.py`.

diffusers' Flax pipelines (`pipeline(prompt_ids, params, prng_seed, jit=True)`) draw their
initial latents from `prng_seed` (`jax.random.normal(prng_seed, latents_shape)`): one key given
to two calls generates the same images (diffusers de82e59, the Flax DreamBooth script, drew
every batch of class images from one key). The object comes from the class itself or, most
often, from the first item of `Pipeline.from_pretrained(...)`, which returns `(pipeline,
params)`. Read in diffusers v0.40.0 (`src/diffusers/pipelines/**/pipeline_flax_*.py`, the last
release with Flax pipelines) and v0.5-v0.10 (the same `__call__` parameters).
"""

from __future__ import annotations

# (class name, position of `prng_seed` in `__call__` after `self`, keywords that, given,
# replace the draw: text-to-image draws its latents only when `latents=` is not given;
# img2img and inpaint draw their VAE samples from the key whatever is given).
_DIFFUSERS_FLAX: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("FlaxStableDiffusionPipeline", 2, ("latents",)),
    ("FlaxStableDiffusionXLPipeline", 2, ("latents",)),
    ("FlaxStableDiffusionControlNetPipeline", 3, ("latents",)),
    ("FlaxStableDiffusionImg2ImgPipeline", 3, ()),
    ("FlaxStableDiffusionInpaintPipeline", 4, ()),
)


def _made_by(name: str) -> tuple[str, ...]:
    """What makes a pipeline object: the class, and the first item `from_pretrained` returns
    (`[0]`: the unpacked item, `unpacked_item`)."""
    classes = (f"diffusers.{name}", f"diffusers.pipelines.{name}")
    return (*classes, *(f"{made}.from_pretrained[0]" for made in classes))


# (what makes the object, the position of the key, keywords that replace the draw)
PIPELINE_CALLS: tuple[tuple[tuple[str, ...], int, tuple[str, ...]], ...] = tuple(
    (_made_by(name), position, replaced_by) for name, position, replaced_by in _DIFFUSERS_FLAX)


def unpacked_item(qualified: str | None, path: tuple[int, ...]) -> str:
    """`diffusers.X.from_pretrained[0]`: what makes an item unpacked from a call's result, for
    a row's `made_by` ("" when the call's name is not known)."""
    return "" if qualified is None else qualified + "".join(f"[{index}]" for index in path)
