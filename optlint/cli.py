"""The click commands and nothing else."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from collections.abc import Callable
from typing import Any

import click

from optlint import __version__
from optlint.check_command import OPTIONS, Option, check_request
from optlint.console import internal_error
from optlint.exits import EXIT_ERROR

# The runner, the engine and the rules are imported by the commands that need them, so that
# `--version` and `--help` do not pay for libcst.


def _codes(value: str | None) -> list[str]:
    return [code.strip().upper() for code in (value or "").split(",") if code.strip()]


class _Commands(click.Group):
    """An exception nothing else caught is one `error:` line and exit 2, never exit 1 (which says
    "findings") nor a traceback (unless --verbose asked for one)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as error:  # noqa: BLE001 - the last line of defence
            internal_error(error)
            sys.exit(EXIT_ERROR)


def _finite(seconds: float) -> float:
    if not math.isfinite(seconds):  # FloatRange lets nan through: no comparison is false for it
        raise click.BadParameter(f"{seconds} is not a number of seconds", param_hint="--timeout")
    return seconds


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="optlint")
def main() -> None:
    """optlint: find, fix and prove Equinox + Optax hazards in JAX training code."""


def _click_option(option: Option) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """`option` (optlint/check_command.py) as click declares it."""
    names = (f"{option.names[0]}/{option.negative}", *option.names[1:]) if option.negative \
        else option.names
    kind: click.ParamType | None = (
        click.Choice(option.choices) if option.choices is not None
        else click.IntRange(min=option.minimum) if option.minimum is not None
        else click.Path(dir_okay=False) if option.file else None)
    if option.negative:  # a boolean pair: unset is None (the configuration decides)
        return click.option(*names, option.dest, default=None, help=option.help)
    extra: dict[str, Any] = {} if option.default is None else {"default": option.default}
    return click.option(*names, option.dest, type=kind, help=option.help, is_flag=option.flag,
                        multiple=option.multiple, **extra)


def _check(paths: tuple[str, ...], **values: Any) -> None:
    """Check PATHS (default: the current folder) for Equinox + Optax hazards."""
    from optlint.runner import run_check

    sys.exit(run_check(check_request(paths, values)))


# The options are data shared with the plain parse that runs a plain `optlint check` without
# click (optlint/check_command.py); declared in their order, so `--help` lists them so.
for _option in reversed(OPTIONS):
    _check = _click_option(_option)(_check)
check = main.command("check")(click.argument("paths", nargs=-1)(_check))


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Print the page of rule CODE (or NAME, e.g. unfiltered-equinox-model), or list every rule
    with --all."""
    from optlint.catalog import catalog, rule_rows
    from optlint.pages import readable_page

    infos = catalog()
    if show_all or code is None:
        if output_format == "json":
            click.echo(json.dumps([{"code": i.code, "name": i.name, "summary": i.summary,
                                    "fix": i.fix_availability} for i in infos], indent=2))
        else:
            click.echo(rule_rows())
        return
    info = next((i for i in infos if code.upper() == i.code or code.lower() == i.name), None)
    if info is None:
        click.echo(f"error: unknown rule '{code}' (`optlint rule --all` lists them)", err=True)
        sys.exit(EXIT_ERROR)
    page = readable_page(info.code)
    if page is None:
        click.echo(f"error: no page for {info.code}", err=True)
        sys.exit(EXIT_ERROR)
    if output_format == "json":
        click.echo(json.dumps({"code": info.code, "name": info.name, "summary": info.summary,
                               "fix": info.fix_availability, "page": page}, indent=2))
    else:
        click.echo(page, nl=False)


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--rules", "rule_pages", is_flag=True,
              help="Run every rule page's Example and Use instead on the installed versions.")
@click.option("--python", "python", type=str, default=sys.executable, show_default=False,
              help="Interpreter that runs the harness (default: this one).")
@click.option("--device", type=click.Choice(["cpu", "gpu", "auto"]), default="auto")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=120.0,
              callback=lambda ctx, param, value: _finite(value),
              help="Seconds per file before its harness (whole process group) is killed.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
@click.option("--select", help="Comma-separated codes or prefixes to verify.")
@click.option("--config", type=click.Path(dir_okay=False), help="Use this pyproject.toml.")
@click.option("--optax-version", help="Lint against this optax version (the run uses what is "
              "installed).")
def verify(paths: tuple[str, ...], rule_pages: bool, python: str, device: str, timeout: float,
           output_format: str, select: str | None, config: str | None,
           optax_version: str | None) -> None:
    """Prove findings in PATHS by running the original and the fixed code under jax.jit."""
    from optlint.verify.command import VerifyRequest, run_verify
    from optlint.verify.rule_pages import run_rule_pages

    request = VerifyRequest(list(paths), python, device, timeout, output_format, config,
                            _codes(select) if select is not None else None,
                            {"optax": optax_version})
    sys.exit(run_rule_pages(request) if rule_pages else run_verify(request))


@main.command()
def server() -> None:
    """Run the language server for editors (LSP over standard input and output)."""
    # Imported here: pygls is an optional extra, and `optlint check` must not pay for it.
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        click.echo("error: `optlint server` needs pygls: pip install 'pygls>=2,<3' (or install "
                   "optlint's `server` extra)", err=True)
        sys.exit(EXIT_ERROR)
    from optlint.server.protocol import serve

    serve()
