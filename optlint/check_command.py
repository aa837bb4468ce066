"""`optlint check`'s options as data, read by click (optlint/cli.py builds the command from them)
and by a plain parse that needs no click.

A pre-commit hook checking one staged file waits for the whole process, and importing click and
having it parse the line is a tenth of that beyond the floor of any libcst linter (benchmarks/
bench.py's one-file figure: click's import, its 35 option objects, and for every short option a
failed long-option match whose error message imports difflib and gettext). So `optlint check`
with plain options (flags, values given in full, paths) is parsed here; anything else (`--help`,
an unknown or misspelt option, combined short flags, a value click would reject) is left to
click, which says what is wrong as it always has. tests/test_check_command.py checks the two
parses agree.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from optlint.report import FORMAT_NAMES

if TYPE_CHECKING:
    from optlint.request import CheckRequest


class Option(NamedTuple):
    """One option of `optlint check`: its names (long first), the parameter it sets, its help,
    and what it takes (nothing: a flag)."""

    names: tuple[str, ...]
    dest: str
    help: str | None = None
    flag: bool = False
    multiple: bool = False
    choices: tuple[str, ...] | None = None
    default: str | None = None
    minimum: int | None = None  # an integer at least this
    file: bool = False  # a path that is not a folder
    negative: str | None = None  # `--preview/--no-preview`: the name that sets False


OPTIONS: tuple[Option, ...] = (
    Option(("--fix",), "fix", "Apply safe fixes.", flag=True),
    Option(("--fix-only",), "fix_only", "Apply fixes and report only how many were applied, not "
           "what remains (implies --fix).", flag=True),
    Option(("--exit-non-zero-on-fix",), "exit_non_zero_on_fix", "Exit 1 when a fix changed a "
           "file, even if no finding remains.", flag=True),
    Option(("--unsafe-fixes",), "unsafe_fixes", "Also apply unsafe fixes (with --fix).",
           flag=True),
    Option(("--diff",), "diff", "Print the diff --fix would make; change nothing.", flag=True),
    Option(("--show-fixes",), "show_fixes", "List the fixes applied.", flag=True),
    Option(("--select",), "select", "Comma-separated codes or prefixes to enable (replaces "
           "config)."),
    Option(("--extend-select",), "extend_select", "Codes or prefixes to enable in addition."),
    Option(("--ignore",), "ignore", "Codes or prefixes to disable."),
    Option(("--unfixable",), "unfixable", "Codes or prefixes whose fixes are never applied."),
    Option(("--per-file-ignores",), "per_file_ignores", "GLOB:CODES, e.g. 'tests/*:OPT020' "
           "(repeatable; adds to the configuration's).", multiple=True),
    Option(("--extend-exclude",), "extend_exclude", "Comma-separated patterns to exclude in "
           "addition."),
    Option(("--isolated",), "isolated", "Ignore every configuration file.", flag=True),
    Option(("--show-files",), "show_files", "List the files that would be checked, and exit.",
           flag=True),
    Option(("--color",), "color", "Colour the text output (auto: on a terminal; FORCE_COLOR / "
           "NO_COLOR too).", choices=("auto", "always", "never"), default="auto"),
    Option(("--statistics",), "statistics", "Count findings per rule instead of listing.",
           flag=True),
    Option(("--exit-zero", "-e"), "exit_zero", "Exit 0 even when there are findings.",
           flag=True),
    Option(("--output-format",), "output_format", choices=FORMAT_NAMES, default="text"),
    Option(("--output-file", "-o"), "output_file", "Write the report to this file instead of "
           "standard output.", file=True),
    Option(("--jobs", "-j"), "jobs", "Worker processes (default: cores).", minimum=1),
    Option(("--no-cache", "-n"), "no_cache", "Analyse every file; neither read nor write the "
           "cache (.optlint_cache/).", flag=True),
    Option(("--add-noqa",), "add_noqa", "Add `# noqa: CODE` to every line with a finding "
           "(keeps existing comments and codes).", flag=True),
    Option(("--quiet", "-q"), "quiet", "No summary line.", flag=True),
    Option(("--config",), "config", "Use this pyproject.toml.", file=True),
    Option(("--show-settings",), "show_settings", "Print the resolved settings and exit.",
           flag=True),
    Option(("--stdin-filename",), "stdin_filename", "The name of the file read from `-` "
           "(stdin)."),
    Option(("--force-exclude",), "force_exclude", "Apply excludes to files named explicitly.",
           flag=True),
    Option(("--verbose", "-v"), "verbose", "Tracebacks for internal errors.", flag=True),
    Option(("--optax-version",), "optax_version", "Check against this optax version."),
    Option(("--equinox-version",), "equinox_version", "Check against this equinox version."),
    Option(("--jax-version",), "jax_version", "Check against this jax version."),
    Option(("--preview",), "preview", "Also report findings the analysis could not prove (each "
           "says what it could not see).", flag=True, negative="--no-preview"),
    Option(("--verify",), "verify", "With --fix: apply only fixes that `optlint verify` does "
           "not find failing.", flag=True),
)


def defaults() -> dict[str, Any]:
    """Every option's value when the command line does not give it, as click gives them."""
    return {option.dest: (() if option.multiple else None if option.negative
                          else False if option.flag else option.default) for option in OPTIONS}


def parse_plain(args: list[str]) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """The paths and option values of `optlint check ARGS`, where every argument is plain (see
    the module's docstring); None where click must decide."""
    by_name = {name: option for option in OPTIONS for name in option.names}
    negatives = {option.negative: option for option in OPTIONS if option.negative}
    values = defaults()
    paths: list[str] = []
    position = 0
    while position < len(args):
        argument = args[position]
        position += 1
        if argument == "--":
            paths.extend(args[position:])
            break
        if argument == "-" or not argument.startswith("-"):
            paths.append(argument)
            continue
        if argument in negatives:
            values[negatives[argument].dest] = False
            continue
        name, equals, given = argument.partition("=")
        option = by_name.get(name)
        if option is None or (equals and (option.flag or not name.startswith("--"))):
            return None  # unknown, `-qe`, `-j2`, `--fix=1`: click's to say
        if option.flag:
            values[option.dest] = True
            continue
        if not equals:
            if position == len(args) or args[position].startswith("-"):
                return None
            given = args[position]
            position += 1
        value = _value(option, given)
        if value is None:
            return None
        if option.multiple:
            values[option.dest] = (*values[option.dest], value)
        else:
            values[option.dest] = value
    return tuple(paths), values


def _value(option: Option, given: str) -> str | int | None:
    """`given` as the option's value, None where click would reject it (or might)."""
    if option.choices is not None:
        return given if given in option.choices else None
    if option.minimum is not None:
        if not (given.isascii() and given.isdigit()) or int(given) < option.minimum:
            return None
        return int(given)
    if option.file and os.path.isdir(given):
        return None
    return given


def run_plain(args: list[str]) -> int | None:
    """`optlint check ARGS` run without click: its exit status, or None where the arguments are
    click's to parse. Errors end as under click's group (optlint/cli.py): an exception nothing
    caught is one `error:` line and 2, Ctrl-C is "Aborted!" and 1, and a closed pipe is 1."""
    parsed = parse_plain(args)
    if parsed is None:
        return None
    from optlint.console import echo, internal_error
    from optlint.runner import run_check

    try:
        return run_check(check_request(*parsed))
    except KeyboardInterrupt:
        echo("", err=True)
        echo("Aborted!", err=True)
        return 1
    except OSError as error:
        if error.errno != errno.EPIPE:
            internal_error(error)
            return 2
        # What click does on a closed pipe: nothing more is written, and the status is 1.
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process ends now
        return 1
    except Exception as error:  # noqa: BLE001 - the last line of defence
        internal_error(error)
        return 2


def check_request(paths: tuple[str, ...], values: Mapping[str, Any]) -> CheckRequest:
    """The request the command line makes (click's parameters or `parse_plain`'s)."""
    from optlint.request import CheckRequest

    def codes(value: str | None) -> list[str]:
        return [code.strip().upper() for code in (value or "").split(",") if code.strip()]

    return CheckRequest(
        paths=list(paths), fix=values["fix"] or values["fix_only"], fix_only=values["fix_only"],
        exit_non_zero_on_fix=values["exit_non_zero_on_fix"],
        unsafe_fixes=values["unsafe_fixes"], diff=values["diff"],
        show_fixes=values["show_fixes"],
        select=codes(values["select"]) if values["select"] is not None else None,
        extend_select=codes(values["extend_select"]), ignore=codes(values["ignore"]),
        unfixable=codes(values["unfixable"]), per_file_ignores=list(values["per_file_ignores"]),
        extend_exclude=[p.strip() for p in (values["extend_exclude"] or "").split(",")
                        if p.strip()],
        isolated=values["isolated"], show_files=values["show_files"], color=values["color"],
        statistics=values["statistics"], exit_zero=values["exit_zero"],
        output_format=values["output_format"], jobs=values["jobs"], quiet=values["quiet"],
        config=values["config"], show_settings=values["show_settings"],
        stdin_filename=values["stdin_filename"], force_exclude=values["force_exclude"],
        verbose=values["verbose"],
        versions={library: values[f"{library}_version"] for library in ("optax", "equinox", "jax")},
        verify=values["verify"], preview=values["preview"], no_cache=values["no_cache"],
        add_noqa=values["add_noqa"], output_file=values["output_file"])
