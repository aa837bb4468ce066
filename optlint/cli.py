"""The click commands and nothing else."""

from __future__ import annotations

import importlib.util
import json
import math
import sys

import click

from optlint import __version__
from optlint.exits import EXIT_ERROR
from optlint.report import FORMAT_NAMES

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
            if "--verbose" in sys.argv or "-v" in sys.argv:
                import traceback

                traceback.print_exc()
            click.echo(f"error: internal error: {error!r} (--verbose shows where)", err=True)
            sys.exit(EXIT_ERROR)


def _finite(seconds: float) -> float:
    if not math.isfinite(seconds):  # FloatRange lets nan through: no comparison is false for it
        raise click.BadParameter(f"{seconds} is not a number of seconds", param_hint="--timeout")
    return seconds


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="optlint")
def main() -> None:
    """optlint: find, fix and prove Equinox + Optax hazards in JAX training code."""


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--fix", is_flag=True, help="Apply safe fixes.")
@click.option("--fix-only", is_flag=True, help="Apply fixes and report only how many were "
              "applied, not what remains (implies --fix).")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when a fix changed a file, "
              "even if no finding remains.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply unsafe fixes (with --fix).")
@click.option("--diff", is_flag=True, help="Print the diff --fix would make; change nothing.")
@click.option("--show-fixes", is_flag=True, help="List the fixes applied.")
@click.option("--select", help="Comma-separated codes or prefixes to enable (replaces config).")
@click.option("--extend-select", help="Codes or prefixes to enable in addition.")
@click.option("--ignore", help="Codes or prefixes to disable.")
@click.option("--unfixable", help="Codes or prefixes whose fixes are never applied.")
@click.option("--per-file-ignores", "per_file_ignores", multiple=True,
              help="GLOB:CODES, e.g. 'tests/*:OPT020' (repeatable; adds to the configuration's).")
@click.option("--extend-exclude", help="Comma-separated patterns to exclude in addition.")
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@click.option("--show-files", is_flag=True, help="List the files that would be checked, and exit.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              help="Colour the text output (auto: on a terminal; FORCE_COLOR / NO_COLOR too).")
@click.option("--statistics", is_flag=True, help="Count findings per rule instead of listing.")
@click.option("--exit-zero", "-e", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--output-format", type=click.Choice(FORMAT_NAMES), default="text")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False),
              help="Write the report to this file instead of standard output.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Worker processes (default: cores).")
@click.option("--no-cache", "-n", is_flag=True, help="Analyse every file; neither read nor write the "
              "cache (.optlint_cache/).")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: CODE` to every line with a finding "
              "(keeps existing comments and codes).")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@click.option("--config", type=click.Path(dir_okay=False), help="Use this pyproject.toml.")
@click.option("--show-settings", is_flag=True, help="Print the resolved settings and exit.")
@click.option("--stdin-filename", help="The name of the file read from `-` (stdin).")
@click.option("--force-exclude", is_flag=True, help="Apply excludes to files named explicitly.")
@click.option("--verbose", "-v", is_flag=True, help="Tracebacks for internal errors.")
@click.option("--optax-version", help="Check against this optax version.")
@click.option("--equinox-version", help="Check against this equinox version.")
@click.option("--jax-version", help="Check against this jax version.")
@click.option("--preview/--no-preview", default=None,
              help="Also report findings the analysis could not prove (each says what it could "
              "not see).")
@click.option("--verify", is_flag=True, help="With --fix: apply only fixes that `optlint verify` "
              "does not find failing.")
def check(paths: tuple[str, ...], fix: bool, fix_only: bool, exit_non_zero_on_fix: bool,
          unsafe_fixes: bool, diff: bool, show_fixes: bool,
          select: str | None, extend_select: str | None, ignore: str | None,
          unfixable: str | None, per_file_ignores: tuple[str, ...], extend_exclude: str | None,
          isolated: bool, show_files: bool, color: str, statistics: bool,
          exit_zero: bool, output_format: str, output_file: str | None, jobs: int | None, no_cache: bool, add_noqa: bool,
          quiet: bool,
          config: str | None, show_settings: bool, stdin_filename: str | None,
          force_exclude: bool, verbose: bool, optax_version: str | None,
          equinox_version: str | None, jax_version: str | None, preview: bool | None,
          verify: bool) -> None:
    """Check PATHS (default: the current folder) for Equinox + Optax hazards."""
    from optlint.runner import CheckRequest, run_check

    request = CheckRequest(
        paths=list(paths), fix=fix or fix_only, fix_only=fix_only,
        exit_non_zero_on_fix=exit_non_zero_on_fix, unsafe_fixes=unsafe_fixes, diff=diff,
        show_fixes=show_fixes, select=_codes(select) if select is not None else None,
        extend_select=_codes(extend_select), ignore=_codes(ignore),
        unfixable=_codes(unfixable), per_file_ignores=list(per_file_ignores),
        extend_exclude=[p.strip() for p in (extend_exclude or "").split(",") if p.strip()],
        isolated=isolated, show_files=show_files, color=color, statistics=statistics,
        exit_zero=exit_zero, output_format=output_format, jobs=jobs, quiet=quiet, config=config,
        show_settings=show_settings, stdin_filename=stdin_filename,
        force_exclude=force_exclude, verbose=verbose,
        versions={"optax": optax_version, "equinox": equinox_version, "jax": jax_version},
        verify=verify, preview=preview, no_cache=no_cache, add_noqa=add_noqa,
        output_file=output_file)
    sys.exit(run_check(request))


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
