import optax


def build_optimizer(args):
    txs = []
    if args.max_grad_norm:
        txs.append(optax.clip_by_global_norm(args.max_grad_norm))
    txs.append(optax.scale_by_adam(b1=args.b1, b2=args.b2))
    if args.weight_decay > 0:
        txs.append(optax.add_decayed_weights(args.weight_decay))
    txs.append(optax.scale_by_learning_rate(args.lr))
    return optax.chain(*txs)
