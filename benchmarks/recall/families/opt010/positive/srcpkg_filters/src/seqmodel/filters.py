import equinox as eqx

# one filter for the whole project: arrays and the Python scalars that should be "dynamic"
PARAM_FILTER = eqx.is_array_like


def split_params(model):
    return eqx.partition(model, PARAM_FILTER)
