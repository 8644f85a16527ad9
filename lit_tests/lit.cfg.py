# lit configuration: runs aic's tools over the .mlir files here and checks the
# output with LLVM's FileCheck (Debian's llvm-22-tools).
import os

import lit.formats

config.name = "aic"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.test_source_root

repo = os.path.dirname(config.test_source_root)
tool_dir = os.environ.get("AIC_TOOL_DIR", os.path.join(repo, "target", "debug"))
llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join([tool_dir, llvm_bin, os.environ.get("PATH", "")])
# A failing pass leaves a reproducer in the temporary directory: keep those of
# the tests that make passes fail on purpose in lit's (ignored) Output folder.
scratch = os.path.join(config.test_source_root, "Output")
os.makedirs(scratch, exist_ok=True)
config.environment["TMPDIR"] = scratch
