"""What several rules share that is not a rule: finding the chains met in a harmful order
(`chain_order`), the wording of messages (`phrases`). Edits to the code are in optlint.fixes."""
