# Tool-info module for BenchExec (https://github.com/sosy-lab/benchexec):
# runs `focuscheck check` on one SV-COMP task for the property unreach-call,
# valid-memsafety or valid-memcleanup and maps its JSON verdicts to
# BenchExec's results (valid-free, valid-deref, valid-memtrack by the kind of
# the condition found unsafe).
#
# Use: with the project's root on PYTHONPATH, the tool's name is
# `contrib.benchexec.focuscheck` (in a benchmark definition, <benchmark
# tool="contrib.benchexec.focuscheck">). Test it with
#   PYTHONPATH=. python3 -m benchexec.test_tool_info \
#       contrib.benchexec.focuscheck --tool-directory target/release
#
# SPDX-License-Identifier: MIT OR Apache-2.0

import json

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import get_data_model_from_task, ILP32


class Tool(benchexec.tools.template.BaseTool2):
    """
    focuscheck, a model checker for a subset of C that explains the errors
    it finds. The properties unreach-call (reach_error and
    __VERIFIER_assert), valid-memsafety and valid-memcleanup, and the ILP32
    data model are supported.
    """

    # SV-COMP's property files, by the end of their names, to the option.
    PROPERTIES = {
        "unreach-call.prp": "unreach-call",
        "valid-memsafety.prp": "valid-memsafety",
        "valid-memcleanup.prp": "valid-memcleanup",
    }

    REQUIRED_PATHS = []

    def executable(self, tool_locator):
        # The tool directory (or PATH) holds the binary, or is the project
        # with the binary built in target/release.
        try:
            return tool_locator.find_executable("focuscheck")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("focuscheck", subdir="target/release")

    def name(self):
        return "focuscheck"

    def project_url(self):
        return None

    def version(self, executable):
        # `focuscheck --version` prints "focuscheck 0.1.0".
        return self._version_from_tool(executable, line_prefix="focuscheck ")

    def cmdline(self, executable, options, task, rlimits):
        prop = "unreach-call"
        if task.property_file:
            found = [v for k, v in self.PROPERTIES.items() if task.property_file.endswith(k)]
            if not found:
                raise benchexec.tools.template.UnsupportedFeatureException(
                    "focuscheck checks the properties unreach-call, valid-memsafety and valid-memcleanup"
                )
            prop = found[0]
        data_model = get_data_model_from_task(task, {ILP32: "ILP32"})
        if task.options is not None and data_model is None:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "focuscheck supports only the data model ILP32"
            )
        if len(task.input_files) != 1:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "focuscheck checks one input file per task"
            )
        timeout = []
        if rlimits.cputime and "--timeout" not in options:
            # Its own limit a little before BenchExec's, so that what it
            # decided so far is reported as `unknown` rather than killed.
            timeout = ["--timeout", str(max(1, int(rlimits.cputime * 0.9)))]
        # SV-COMP collects the witness (format 2.0: a violation witness
        # for `false`, a correctness witness for `true`) from the run's
        # working directory: `<resultfiles>witness.yml</resultfiles>`.
        witness = [] if "--witness" in options else ["--witness", "witness.yml"]
        return (
            [executable, "check", "--property", prop, "--format", "json"]
            + timeout
            + witness
            + options
            + list(task.input_files)
        )

    def determine_result(self, run):
        """
        true: every condition safe; false(unreach-call): one is unsafe (a
        counterexample the interpreter replayed); unknown otherwise; an
        error when the file was not checked or the output is not JSON.
        """
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        # The report is from the line `{` to its closing brace; a diagnostic
        # on stderr around it may quote source lines with braces of their own.
        lines = list(run.output)
        start = next((i for i, line in enumerate(lines) if line == "{"), None)
        try:
            text = "\n".join(lines[start:]) if start is not None else ""
            doc = json.JSONDecoder().raw_decode(text)[0] if text else None
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            if run.exit_code.value not in (0, 1, 3):
                return result.RESULT_ERROR + "(exit code {})".format(run.exit_code.value)
            return result.RESULT_ERROR + "(no JSON report)"
        if doc.get("status") != "checked":
            return result.RESULT_ERROR + "({})".format(doc.get("status"))
        conditions = doc.get("conditions", [])
        verdicts = [c.get("verdict") for c in conditions]
        if "unsafe" in verdicts:
            return self._false(run, [c for c in conditions if c.get("verdict") == "unsafe"][0])
        if all(v == "safe" for v in verdicts):
            return result.RESULT_TRUE_PROP
        return result.RESULT_UNKNOWN

    def _false(self, run, c):
        """The SV-COMP result of the property violated by condition `c`."""
        cmdline = list(run.cmdline or [])
        prop = cmdline[cmdline.index("--property") + 1] if "--property" in cmdline else "unreach-call"
        if prop == "valid-memcleanup":
            return result.RESULT_FALSE_MEMCLEANUP
        if prop != "valid-memsafety":
            return result.RESULT_FALSE_REACH
        if c.get("kind") == "leak":
            return result.RESULT_FALSE_MEMTRACK
        if c.get("kind") == "deref" and c.get("condition", "").startswith("pointer access in `free("):
            return result.RESULT_FALSE_FREE
        return result.RESULT_FALSE_DEREF
