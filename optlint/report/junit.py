"""JUnit XML, which most CI systems show as test results: one test suite per file, one failing
test case per finding, whose text ends with the fix title (`help: ...`)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from itertools import groupby

from optlint.diagnostics import Diagnostic
from optlint.report.text import location


def render(diagnostics: list[Diagnostic]) -> str:
    suites = ElementTree.Element("testsuites", name="optlint", tests=str(len(diagnostics)),
                                failures=str(len(diagnostics)))
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
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ElementTree.tostring(suites, encoding="unicode") + "\n")
