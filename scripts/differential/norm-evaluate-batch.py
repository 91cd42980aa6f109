# Runs NLM-Chem's evaluate.py once per stdin line (TAB-separated arguments) in one Python
# process, as `python3 evaluate.py ARGS` would (its own __main__ block, run by runpy), so a
# differential run of hundreds of cases does not start Python for each (norm-compare.ts).
# The script is given by its path; nothing of it is copied here.
#   python3 scripts/differential/norm-evaluate-batch.py EVALUATE_PY < argument-lines
# Prints, per line, "=== BEGIN", its stdout, "=== STDERR", its stderr and "=== END <exit status>".

import contextlib
import io
import logging
import os
import runpy
import sys
import traceback

script = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
for line in sys.stdin:
    out, err = io.StringIO(), io.StringIO()
    status = "0"
    # basicConfig binds its handler to the stderr of the first run: start each run without one.
    logging.root.handlers.clear()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        sys.argv = [script] + line.rstrip("\n").split("\t")
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as e:
            status = str(e.code if e.code is not None else 0)
        except BaseException:
            status = "crash"
            traceback.print_exc(file=err)
    sys.stdout.write("=== BEGIN\n" + out.getvalue() + "=== STDERR\n" + err.getvalue() + "=== END " + status + "\n")
    sys.stdout.flush()
