import argparse


def parse(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--b1", type=float, default=0.9)
    p.add_argument("--b2", type=float, default=0.999)
    p.add_argument("--weight-decay", dest="weight_decay", type=float, default=0.01)
    p.add_argument("--max-grad-norm", dest="max_grad_norm", type=float, default=1.0)
    return p.parse_args(argv)
