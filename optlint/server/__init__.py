"""`optlint server`: the language server (LSP over stdio) for editors.

Nothing here is imported by `optlint check`: pygls is an optional extra (`optlint[server]`), and
the command imports `optlint.server.protocol` only when it runs.
"""
