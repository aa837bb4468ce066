import optax

_FACTORIES = {
    "adam": lambda s: optax.adam(s.learning_rate),
    "sgd": lambda s: optax.sgd(s.learning_rate),
    "lbfgs": lambda s: optax.lbfgs(),
}


def get_solver(settings):
    return _FACTORIES[settings.name](settings)
