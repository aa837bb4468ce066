# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/felipeangelimvieira/prophetverse/pull/256 ("[BUG] Adjust prior predictive usage of rng keys"), merge commit https://github.com/felipeangelimvieira/prophetverse/commit/67a162dbed023038b69d3472d8b41a6c988119f0
# shown: the prior-predictive engine seeds the trace, the prior `Predictive` in `_infer` and the forecasting `Predictive` in `_predict` with the same `self._rng_key`; numpyro hands the observation site of the forecast the key the prior used for `offset`, so the standardised forecast noise at t=0 equals the prior offset draw, sample for sample
# style: sktime/prophetverse-like engine classes: a BaseInferenceEngine holding `_rng_key`, a PriorPredictiveInferenceEngine with infer/predict, a numpyro trend model, a small forecaster object that fits then predicts
"""Prior predictive checks for a linear-trend forecaster (numpyro)."""
import jax
import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from numpyro import handlers
from numpyro.infer import Predictive


class BaseInferenceEngine:
    """Holds the model and the key every inference step draws from."""

    def __init__(self, rng_key=None):
        self.rng_key = rng_key
        if rng_key is None:
            rng_key = jax.random.PRNGKey(0)
        self._rng_key = rng_key

    def infer(self, model, **kwargs):
        self.model_ = model
        return self._infer(**kwargs)

    def predict(self, **kwargs):
        return self._predict(**kwargs)

    def _infer(self, **kwargs):
        raise NotImplementedError

    def _predict(self, **kwargs):
        raise NotImplementedError


class PriorPredictiveInferenceEngine(BaseInferenceEngine):
    """Samples parameters from their priors and runs the model forward."""

    def __init__(self, num_samples=1000, rng_key=None, substitute=None):
        self.num_samples = num_samples
        self.substitute = substitute
        super().__init__(rng_key)

    def _infer(self, **kwargs):
        model = self.model_
        if self.substitute is not None:
            model = handlers.substitute(model, self.substitute)

        trace = handlers.trace(handlers.seed(model, self._rng_key)).get_trace(**kwargs)
        sample_sites = [
            name for name, site in trace.items()
            if site["type"] == "sample" and not site["is_observed"]
        ]
        prior_predictive = Predictive(model, num_samples=self.num_samples, return_sites=sample_sites)
        self.posterior_samples_ = prior_predictive(self._rng_key, **kwargs)  # expect
        self.posterior_samples_.pop("obs", None)
        return self

    def _predict(self, **kwargs):
        predictive = Predictive(self.model_, posterior_samples=self.posterior_samples_,
                                num_samples=self.num_samples)
        self.samples_predictive_ = predictive(self._rng_key, **kwargs)  # expect
        return self.samples_predictive_


def trend_model(t, y=None):
    offset = numpyro.sample("offset", dist.Normal(0.0, 1.0))
    slope = numpyro.sample("slope", dist.Normal(0.0, 1.0))
    noise_scale = numpyro.sample("noise_scale", dist.HalfNormal(0.5))
    mean = numpyro.deterministic("mean", offset + slope * t)
    numpyro.sample("obs", dist.Normal(mean, noise_scale), obs=y)


class TrendForecaster:
    def __init__(self, inference_engine: BaseInferenceEngine):
        self.inference_engine = inference_engine

    def fit(self, t_train, y_train):
        self.inference_engine.infer(trend_model, t=t_train, y=y_train)
        return self

    def predict(self, t_future):
        return self.inference_engine.predict(t=t_future)


def main() -> None:
    t_train = jnp.linspace(0.0, 1.0, 20)
    y_train = 0.5 + 2.0 * t_train + 0.1 * jnp.asarray(np.random.default_rng(0).normal(size=20))
    engine = PriorPredictiveInferenceEngine(num_samples=6, rng_key=jax.random.PRNGKey(3))
    forecaster = TrendForecaster(engine).fit(t_train, y_train)
    t_future = jnp.linspace(1.0, 1.5, 5)
    forecast = forecaster.predict(t_future)

    prior = engine.posterior_samples_
    mean = prior["offset"][:, None] + prior["slope"][:, None] * t_future
    z = (forecast["obs"] - mean) / prior["noise_scale"][:, None]
    print("prior offset draws:         ", np.round(np.asarray(prior["offset"]), 4))
    print("standardised forecast noise:", np.round(np.asarray(z[:, 0]), 4))
    if np.allclose(z[:, 0], prior["offset"], atol=1e-4):
        print("HAZARD: the forecast's observation noise reuses the random draws of the prior offset")


if __name__ == "__main__":
    main()
