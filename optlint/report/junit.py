"""JUnit XML, which most CI systems show as test results: one test suite per file, one failing
test case per finding, whose text ends with the fix title (`help: ...`)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from itertools import groupby

from optlint.diagnostics import Diagnostic, NotChecked
from optlint.report.text import location


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = ()) -> str:
    suites = ElementTree.Element("testsuites", name="optlint",
                                tests=str(len(diagnostics) + len(not_checked)),
                                failures=str(len(diagnostics)), errors=str(len(not_checked)))
    for filename, group in groupby(diagnostics, key=lambda d: d.filename):
        found = list(group)
        suite = ElementTree.SubElement(suites, "testsuite", name=filename,
                                       tests=str(len(found)), failures=str(len(found)))
        for d in found:
            case = ElementTree.SubElement(suite, "testcase", name=f"{d.code} {location(d)}",
                                          classname=filename)
            failure = ElementTree.SubElement(case, "failure", message=d.message, type=d.code)
            text = d.message_with_help("\nhelp: ")  # the fix title on a line of its own
            failure.text = f"{location(d)}: {d.code} {text}"
    for item in not_checked:  # a test that could not run is an error, not a failure
        suite = ElementTree.SubElement(suites, "testsuite", name=item.filename, tests="1",
                                       failures="0", errors="1")
        case = ElementTree.SubElement(suite, "testcase", name="not checked",
                                      classname=item.filename)
        error = ElementTree.SubElement(case, "error", message=item.reason, type="not-checked")
        error.text = item.reason
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ElementTree.tostring(suites, encoding="unicode") + "\n")
