"""A small walking-robot task: physics state, randomized events, a rollout."""
