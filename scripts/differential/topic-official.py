"""Runs the LitCovid track's evaluation script on every case folder of a TOPIC differential
run, in one Python process (numpy, pandas and scikit-learn load once): the script itself,
unchanged, executed as __main__ with --gold gold.csv --pred pred.csv per case. What it
prints goes to official.out, its error to official.err, 0 or 1 to official.rc.

    python3 scripts/differential/topic-official.py <eval-script> <cases-dir>

<eval-script> is the track's biocreative_litcovid_eval.py, fetched for the comparison; it
is not part of this repository.
"""

import contextlib
import os
import runpy
import sys
import traceback
import warnings


def main():
    script, root = sys.argv[1], sys.argv[2]
    cases = sorted((d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))), key=lambda d: int(d) if d.isdigit() else d)
    for name in cases:
        case = os.path.join(root, name)
        sys.argv = [script, '--gold', os.path.join(case, 'gold.csv'), '--pred', os.path.join(case, 'pred.csv')]
        code = 0
        with open(os.path.join(case, 'official.out'), 'w') as out, open(os.path.join(case, 'official.err'), 'w') as err:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
                warnings.simplefilter('ignore')
                try:
                    runpy.run_path(script, run_name='__main__')
                except SystemExit as stop:
                    code = stop.code if isinstance(stop.code, int) else 1
                except Exception:
                    traceback.print_exc()
                    code = 1
        with open(os.path.join(case, 'official.rc'), 'w') as rc:
            rc.write(f'{code}\n')
    print(f'{len(cases)} cases run')


if __name__ == '__main__':
    main()
