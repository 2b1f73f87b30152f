"""Builds the wheel with the repository's built page (dist/) and the core's command line
(attention-trace, which computes trace(), from_torch() and to_torch()) inside it."""
import json
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

REPO = Path(__file__).resolve().parent.parent


class BuildWithPage(build_py):
    def run(self):
        super().run()
        package = Path(self.build_lib) / "attention_explorer"
        dist = REPO / "dist"
        if not (dist / "index.html").is_file():
            # Also when the build runs in a copy of python/ (python -m build, pip before 21.3).
            raise SystemExit(
                f"{dist} has no built page: build it first (bash .ci/build.sh), then install from "
                "the repository with pip install ./python"
            )
        shutil.rmtree(package / "page", ignore_errors=True)
        # The trained model (45.7 MB) stays out: the widget's page says it cannot fetch it.
        shutil.copytree(dist, package / "page", ignore=shutil.ignore_patterns("models", "embed-example.*"))
        (package / "bin").mkdir(exist_ok=True)
        shutil.copy2(attention_trace(), package / "bin" / "attention-trace")


def attention_trace() -> Path:
    """The core's command line, built for this machine (ATTENTION_TRACE: one built already)."""
    if os.environ.get("ATTENTION_TRACE"):
        return Path(os.environ["ATTENTION_TRACE"])
    built = subprocess.run(
        ["cargo", "build", "--release", "--bin", "attention-trace", "--message-format=json-render-diagnostics"],
        cwd=REPO, check=True, stdout=subprocess.PIPE, text=True,
    )
    # Where cargo put it (whatever the target folder), from its own report.
    for line in built.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "attention-trace":
            return Path(message["executable"])
    raise SystemExit("cargo built no attention-trace")


class WithBinary(Distribution):
    """A wheel for this platform (it holds attention-trace)."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """Python code for any Python 3, with a binary for this platform."""

    def get_tag(self):
        return ("py3", "none", super().get_tag()[2])


setup(distclass=WithBinary, cmdclass={"build_py": BuildWithPage, "bdist_wheel": PlatformWheel})
