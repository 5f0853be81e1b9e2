"""The wheel's optional compiled kernels (a hatchling build hook).

    RULESDSL_COMPILE=1 pip install .          # or: RULESDSL_COMPILE=1 pip wheel .

compiles the modules listed in rulesdsl/engine/kernels.py with Cython into the wheel,
beside their Python source (the fallback), and tags the wheel for this Python and
platform. Without the variable the wheel is pure Python, as before; an editable install
always runs the source. Cython and setuptools (its compiler driver) are asked for only
when compiling.

Modules are compiled as they are: `annotation_typing` is off, so an annotation never
becomes a C type (a `float` one would turn an int key into 60.0 and change the saved
state), and the compiled engine plays the same game (tests/test_compiled_kernels.py).
"""

from __future__ import annotations

import os
import runpy
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENV = "RULESDSL_COMPILE"
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def wanted() -> bool:
    return os.environ.get(ENV, "").strip().lower() in ("1", "true", "yes")


def kernels(root: Path) -> tuple[str, ...]:
    """The module names of rulesdsl/engine/kernels.py (read without importing the package)."""
    return runpy.run_path(str(root / "rulesdsl" / "engine" / "kernels.py"))["KERNELS"]


def compile_kernels(root: Path, out: Path, jobs: int | None = None) -> dict[str, Path]:
    """Compile the kernels of the tree at `root` into `out` (the package's layout there):
    module name -> the extension file built."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    names = kernels(root)
    with tempfile.TemporaryDirectory() as tmp:
        extensions = [Extension(name, [str(root / (name.replace(".", "/") + ".py"))])
                      for name in names]
        modules = cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=tmp,
                            quiet=True)
        command = build_ext(Distribution({"ext_modules": modules}))
        command.build_lib = str(out)
        command.build_temp = str(Path(tmp) / "objects")
        if jobs is None:
            jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
                else os.cpu_count() or 1
        command.parallel = jobs
        command.ensure_finalized()
        command.run()
        return {name: out / command.get_ext_filename(name) for name in names}


class KernelsHook(BuildHookInterface):
    """Compiles the kernels into a standard wheel when RULESDSL_COMPILE is set."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return ["Cython>=3.0", "setuptools>=61"] if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version != "standard" or not wanted():
            return
        root = Path(self.root)
        self._out = Path(tempfile.mkdtemp(prefix="rulesdsl-kernels-"))
        for path in compile_kernels(root, self._out).values():
            build_data["force_include"][str(path)] = str(path.relative_to(self._out))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            import shutil

            shutil.rmtree(out, ignore_errors=True)
