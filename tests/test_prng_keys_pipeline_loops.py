"""OPT020 and diffusers' Flax pipelines called in a loop over a data loader (diffusers de82e59,
the Flax DreamBooth script: `rng` made once, then `pipeline(prompt_ids, p_params, rng, jit=True)`
for every batch of `for example in tqdm(sample_dataloader)`, so every batch generated the same
class images). Two pieces, each a row: the pipeline draws its latents from `prng_seed`
(`key_pipeline_rows.py`, also when unpacked from `from_pretrained`), and a loop over a torch
`DataLoader` runs one step per batch (`key_batch_loops.py`), as `range(n)` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

SOURCE = '''\
import jax
import torch
from diffusers import FlaxStableDiffusionPipeline
from tqdm.auto import tqdm


def generate(dataset, params):
    rng = jax.random.split(jax.random.PRNGKey(0), jax.device_count())
    {made}
    loader = {loader}
    for example in tqdm(loader, desc="class images"):
        prompt_ids = pipeline.prepare_inputs(example["prompt"])
        images = pipeline(prompt_ids, params, {key}jit=True).images
        for image in images:
            image.save(example["path"])
'''
FROM_PRETRAINED = 'pipeline, params = FlaxStableDiffusionPipeline.from_pretrained("sd")'
BUILT = "pipeline = FlaxStableDiffusionPipeline(vae, text_encoder, tokenizer, unet, scheduler)"
LOADER = "torch.utils.data.DataLoader(dataset, batch_size=4)"


@pytest.mark.parametrize(("made", "loader", "key", "expected"), [
    (FROM_PRETRAINED, LOADER, "rng, ", [13]),
    (BUILT, LOADER, "rng, ", [13]),
    (FROM_PRETRAINED, LOADER, "prng_seed=rng, ", [13]),
    # Latents given: the text-to-image pipeline draws nothing from the key.
    (FROM_PRETRAINED, LOADER, "rng, latents=example['latents'], ", []),
    # A loop over settings, not over a loader's batches: one key for each may be meant.
    (FROM_PRETRAINED, "list(dataset)", "rng, ", []),
    # Another object's call: nothing known about its key.
    ('pipeline, params = make_pipeline("sd")', LOADER, "rng, ", []),
])
def test_pipeline_in_a_loader_loop(tmp_path: Path, made: str, loader: str, key: str,
                                   expected: list[int]) -> None:
    source = SOURCE.format(made=made, loader=loader, key=key)
    assert opt020_lines(tmp_path, "generate.py", source) == expected


def test_a_fresh_key_per_batch_is_quiet(tmp_path: Path) -> None:
    fixed = SOURCE.format(made=FROM_PRETRAINED, loader=LOADER, key="sample_rng, ").replace(
        '        prompt_ids = pipeline', '        rng, sample_rng = jax.random.split(rng)\n'
        '        prompt_ids = pipeline')
    assert opt020_lines(tmp_path, "generate.py", fixed) == []
